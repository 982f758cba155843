import { storeToRefs } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import { cutoffKeeping, probabilityBands } from '../../../shared/experiments/probability-bands'
import type { Evaluation } from '../../../shared/relevance/evaluation'
import { useExperimentsStore } from '../../stores/experiments'
import { useQuerySetsStore } from '../../stores/query-sets'
import { sideLetter } from './experiment-format'

/** The share of the relevant results the cutoff keeps. */
export const KEEP_SHARE = 0.9

/**
 * Probability against grade for one side: its rankings (fetched on demand,
 * the record holds only means) put in probability bands with the mean grade
 * of each, by the set's judgments as they are now; and the highest cutoff
 * that still keeps 90 % of the relevant results, in words.
 */
export function useExperimentProbability() {
  const experiments = useExperimentsStore()
  const sets = useQuerySetsStore()
  const { shown } = storeToRefs(experiments)
  const side = ref(0)
  const evaluation = shallowRef<Evaluation | null>(null)
  const loading = ref(false)

  const sideOptions = computed(() => (shown.value?.sides ?? []).map((entry, index) => ({ value: index, label: `${sideLetter(index)}: ${entry.label}` })))

  watch(
    [() => shown.value?.id, side],
    async ([id, index]) => {
      if (!id) return
      // A side the newly shown experiment does not have: back to A.
      if (index >= (shown.value?.sides.length ?? 0)) {
        side.value = 0
        return
      }
      loading.value = true
      const fetched = await experiments.sideEvaluation(index)
      // Only the answer to the latest choice shows.
      if (shown.value?.id === id && side.value === index) {
        evaluation.value = fetched
        loading.value = false
      }
    },
    { immediate: true },
  )

  const rankings = computed(() => evaluation.value?.rankings ?? [])
  const hasProbabilities = computed(() => rankings.value.some((ranking) => (ranking.probabilities?.length ?? 0) > 0))
  /** The set's judgments as they are now, as the metrics read them; the evaluation's own grades are not kept with it. */
  const grades = computed(() => sets.grades)
  const threshold = computed(() => sets.settings?.threshold ?? shown.value?.settings.threshold ?? 1)
  const maxGrade = computed(() => Math.max(1, ...(sets.set?.scale ?? shown.value?.scale ?? []).map((step) => step.grade)))
  const bands = computed(() => (hasProbabilities.value ? probabilityBands(rankings.value, grades.value) : []))
  const cutoff = computed(() => (hasProbabilities.value ? cutoffKeeping(rankings.value, grades.value, threshold.value, KEEP_SHARE) : null))

  const cutoffText = computed(() => {
    if (!evaluation.value) return ''
    if (!hasProbabilities.value) return "This side's evaluation was kept before evaluations kept each result's probability: there is nothing to chart. Run the experiment again to see it."
    const result = cutoff.value
    if (!result) return `No retrieved result with a probability is judged relevant (grade ${threshold.value} or more): there is no cutoff to state.`
    // Rounded down: a cutoff shown above the computed one could drop a relevant result it counts as kept.
    const shownCutoff = (Math.floor(result.cutoff * 1000) / 1000).toFixed(3)
    return `A cutoff of ${shownCutoff} keeps ${Math.round(KEEP_SHARE * 100)} % of the relevant results (${result.relevant} of ${result.relevantTotal}), and ${result.kept} results in all.`
  })

  return { shown, side, sideOptions, loading, evaluation, hasProbabilities, bands, maxGrade, cutoff, cutoffText, sideLetter }
}
