import { storeToRefs } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { ReplyOf } from '../../../shared/ipc/contract'
import { useExperimentsStore } from '../../stores/experiments'
import { useQuerySetsStore } from '../../stores/query-sets'
import { sideLetter } from './experiment-format'

/** The share of the relevant results the cutoff keeps. */
export const KEEP_SHARE = 0.9

/**
 * Probability against grade for one side: its kept rankings put in
 * probability bands with the mean grade of each, by the set's judgments as
 * they are now; and the highest cutoff that still keeps 90 % of the relevant
 * results, in words. Main figures both over the rankings in its database
 * (eval:probability), asked again when the side, the judgments or the
 * threshold change: the rankings themselves never come to the window.
 */
export function useExperimentProbability() {
  const experiments = useExperimentsStore()
  const sets = useQuerySetsStore()
  const { shown } = storeToRefs(experiments)
  const side = ref(0)
  const figures = shallowRef<ReplyOf<'eval:probability'> | null>(null)
  const loading = ref(false)
  const threshold = computed(() => sets.settings?.threshold ?? shown.value?.settings.threshold ?? 1)

  const sideOptions = computed(() => (shown.value?.sides ?? []).map((entry, index) => ({ value: index, label: `${sideLetter(index)}: ${entry.label}` })))

  let asked = 0
  watch(
    // The judgments as a whole: a rating makes a new list (main aggregates them, not the window).
    [() => shown.value?.id, side, threshold, () => sets.set?.judgments],
    async ([id, index, at]) => {
      if (!id) return
      // A side the newly shown experiment does not have: back to A.
      if (index >= (shown.value?.sides.length ?? 0)) {
        side.value = 0
        return
      }
      const mine = ++asked
      loading.value = true
      const fetched = await experiments.sideProbability(index, at, KEEP_SHARE)
      // Only the answer to the latest choice shows.
      if (mine === asked) {
        figures.value = fetched
        loading.value = false
      }
    },
    { immediate: true },
  )

  const hasProbabilities = computed(() => figures.value?.hasProbabilities ?? false)
  const maxGrade = computed(() => Math.max(1, ...(sets.set?.scale ?? shown.value?.scale ?? []).map((step) => step.grade)))
  const bands = computed(() => figures.value?.bands ?? [])
  const cutoff = computed(() => figures.value?.cutoff ?? null)

  const cutoffText = computed(() => {
    if (!figures.value) return ''
    if (!hasProbabilities.value) return "This side's evaluation was kept before evaluations kept each result's probability: there is nothing to chart. Run the experiment again to see it."
    const result = cutoff.value
    if (!result) return `No retrieved result with a probability is judged relevant (grade ${threshold.value} or more): there is no cutoff to state.`
    // Rounded down: a cutoff shown above the computed one could drop a relevant result it counts as kept.
    const shownCutoff = (Math.floor(result.cutoff * 1000) / 1000).toFixed(3)
    return `A cutoff of ${shownCutoff} keeps ${Math.round(KEEP_SHARE * 100)} % of the relevant results (${result.relevant} of ${result.relevantTotal}), and ${result.kept} results in all.`
  })

  return { shown, side, sideOptions, loading, figures, hasProbabilities, bands, maxGrade, cutoff, cutoffText, sideLetter }
}
