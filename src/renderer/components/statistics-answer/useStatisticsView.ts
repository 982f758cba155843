import { computed } from 'vue'
import { distributionPoints } from '../../../shared/results/distribution'
import type { StatisticsResponse } from '../../../shared/responses'

/** A statistics answer as every view of it shows it: the total, and one point per cutoff, lowest first. */
export function useStatisticsView(statistics: () => StatisticsResponse) {
  const points = computed(() => distributionPoints(statistics()))
  const total = computed(() => statistics().total.toLocaleString('en-US'))
  return { points, total }
}
