import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { distributionPoints } from '../../../shared/results/distribution'
import { useChainStore } from '../../stores/chain'
import { useQueryStore } from '../../stores/query'

/** The statistics panel's logic: the total and the distribution's points, from the last statistics answer. */
export function useStatisticsPanel() {
  const query = useQueryStore()
  const { statistics, phase } = storeToRefs(query)
  const { cutoff } = storeToRefs(useChainStore())
  const points = computed(() => (statistics.value ? distributionPoints(statistics.value) : []))
  const total = computed(() => statistics.value?.total.toLocaleString('en-US') ?? '')
  const stale = computed(() => phase.value === 'running')
  return { statistics, points, total, cutoff, stale }
}
