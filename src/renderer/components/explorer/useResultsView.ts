import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { useQueryStore } from '../../stores/query'

/** The Results view: the run's failure or cancellation, then its rows (or answer) beside the statistics and facets. */
export function useResultsView() {
  const query = useQueryStore()
  const { failure, phase, results: rows, answer } = storeToRefs(query)
  /** Something to show in the results panel: rows, or the answer of a type that is not rows (count, resultitem, options). */
  const results = computed(() => rows.value ?? answer.value)
  return { failure, phase, results }
}
