import { storeToRefs } from 'pinia'
import { computed } from 'vue'
import { useQuerySetsStore } from '../../stores/query-sets'

/**
 * The query set a view works on, shared by the Evaluation and Experiments
 * views (choosing it in one chooses it in the other), with its counts.
 */
export function useQuerySetPicker() {
  const sets = useQuerySetsStore()
  const { summaries, chosen } = storeToRefs(sets)
  const summary = computed(() => summaries.value.find((entry) => entry.name === chosen.value) ?? null)
  const setOptions = computed(() =>
    summaries.value.length === 0 ? [{ value: '', label: 'No query sets yet' }] : summaries.value.map((entry) => ({ value: entry.name, label: entry.name })),
  )

  function choose(name: string): void {
    void sets.choose(name || null)
  }

  return { summaries, chosen, summary, setOptions, choose }
}
