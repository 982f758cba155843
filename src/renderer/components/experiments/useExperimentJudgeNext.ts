import { storeToRefs } from 'pinia'
import { computed, ref } from 'vue'
import { useJudgeNext, type NamedPair } from '../../composables/useJudgeNext'
import { useExperimentsStore } from '../../stores/experiments'
import { useQuerySetsStore } from '../../stores/query-sets'
import { pValue, sideLetter, signed } from './experiment-format'

/** A verdict's state in words: what judging the unjudged items could still change, or that it cannot. */
export function verdictText(verdict: { signCanChange: boolean; significanceCanChange: boolean }): string {
  if (verdict.signCanChange && verdict.significanceCanChange) return 'could change sign and significance'
  if (verdict.signCanChange) return 'could change sign'
  if (verdict.significanceCanChange) return 'could change significance'
  return 'decided'
}

/**
 * What judging could change in the experiment shown (main works it out in a
 * worker thread with the set's judgments as they are now): per metric of the
 * side compared, the mean delta now and where it could go with the unjudged
 * items of either side's top judgeDepth judged, and whether its sign or its
 * significance could change; the summary sentence; and Judge next, which
 * walks the queue of pairs that could change a verdict in the Judge dialog.
 */
export function useExperimentJudgeNext() {
  const experiments = useExperimentsStore()
  const sets = useQuerySetsStore()
  const { shown, other, labels } = storeToRefs(experiments)
  const { set } = storeToRefs(sets)
  const judgeNext = useJudgeNext('experiments:judge-next', () => (shown.value && set.value && shown.value.set === set.value.name ? shown.value.id : null))
  /** Judge next's pairs while the Judge dialog walks them. */
  const judging = ref<NamedPair[] | null>(null)

  const otherLetter = computed(() => sideLetter(other.value + 1))
  const judgeDepth = computed(() => shown.value?.judgeDepth ?? 10)
  const answer = computed(() => judgeNext.current.value)
  const rows = computed(() =>
    (answer.value?.verdicts ?? [])
      .filter((verdict) => verdict.other === other.value)
      .map((verdict) => {
        const state = verdict.decided ? 'decided' : 'open'
        return {
          key: verdict.metric,
          label: labels.value[verdict.metric] ?? verdict.metric,
          delta: signed(verdict.delta.current),
          range: `${signed(verdict.delta.low)} to ${signed(verdict.delta.high)}`,
          p: pValue(verdict.pAdjusted.current),
          pEnds: `${pValue(verdict.pAdjusted.low)} / ${pValue(verdict.pAdjusted.high)}`,
          state,
          stateText: verdictText(verdict),
        }
      }),
  )
  const summary = computed(() => answer.value?.summary ?? '')
  const pairsText = computed(() => {
    const reply = answer.value
    if (!reply || reply.total === 0) return ''
    const listed = reply.queue.length
    return listed < reply.total ? `${listed} of ${reply.total} pairs, most telling first` : `${reply.total} ${reply.total === 1 ? 'pair' : 'pairs'}, most telling first`
  })
  const canJudge = computed(() => judgeNext.pairs.value.length > 0)
  const error = computed(() => judgeNext.error.value)

  function judgeNextWalk(): void {
    if (canJudge.value) judging.value = judgeNext.pairs.value
  }
  function judged(): void {
    judging.value = null
  }

  return { shown, answer, judgeDepth, otherLetter, rows, summary, pairsText, canJudge, error, judging, judgeNextWalk, judged }
}
