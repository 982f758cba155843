import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { attributionRows } from '../../../shared/experiments/attribution'
import { useExperimentsStore } from '../../stores/experiments'
import { figure, signed } from './experiment-format'

/**
 * Per-step attribution: the template cut after each step, run on A, each
 * cut's means beside the change from the cut before: what each step adds.
 */
export function useExperimentAttribution() {
  const experiments = useExperimentsStore()
  const { shown, metricKeys, labels } = storeToRefs(experiments)

  const columns = computed(() => metricKeys.value.map((key) => ({ key, label: labels.value[key] ?? key })))
  const rows = computed(() =>
    attributionRows(shown.value?.attribution ?? [], metricKeys.value).map((row, index) => ({
      label: row.label,
      cells: metricKeys.value.map((key) => {
        const change = row.change[key] ?? null
        return {
          key,
          mean: figure(row.means[key]),
          // The first cut has nothing before it to change from.
          change: index === 0 ? '' : signed(change),
          direction: change === null || change === 0 ? 'tie' : change > 0 ? 'win' : 'loss',
        }
      }),
    })),
  )
  return { columns, rows }
}
