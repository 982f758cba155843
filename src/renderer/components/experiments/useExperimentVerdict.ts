import { storeToRefs } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { VerdictHold } from '../../../shared/ipc/judge-contract'
import { judgeRater } from '../../../shared/relevance/llm-judge'
import { call, errorMessage } from '../../api/explorer-client'
import { latestCall } from '../../stores/latest-call'
import { useExperimentsStore } from '../../stores/experiments'
import { useQuerySetsStore } from '../../stores/query-sets'
import { isDemoJudge, useLlmJudgesStore } from '../../stores/llm-judges'
import type { FieldOption } from '../controls/field-options'
import { pValue, signed } from './experiment-format'

const GRADES = ['people', 'judge', 'both'] as const

/**
 * "Does the verdict hold?": the experiment shown, its table worked out again
 * by main (`experiments:verdict`) with the people's grades only, the chosen
 * judge's only, and both; for each side and metric, Δ and p under each, and
 * whether the verdict holds, its sign changes, or its significance does.
 * Main reads the set's grades as they are now, so it is asked again when they change.
 */
export function useExperimentVerdict() {
  const experiments = useExperimentsStore()
  const store = useLlmJudgesStore()
  const sets = useQuerySetsStore()
  const { shown, labels } = storeToRefs(experiments)

  const chosen = ref<string | null>(null)
  const judgeOptions = computed<FieldOption<string>[]>(() => store.judges.map((judge) => ({ value: judge.name, label: `${judgeRater(judge)}${isDemoJudge(judge) ? ' (demo)' : ''}` })))
  const judgeName = computed({
    get: () => (chosen.value !== null && store.judges.some((judge) => judge.name === chosen.value) ? chosen.value : (store.judges[0]?.name ?? '')),
    set: (name: string) => (chosen.value = name),
  })

  const answer = shallowRef<{ id: string; judge: string; reply: VerdictHold } | null>(null)
  const error = ref<string | null>(null)
  const latest = latestCall()
  async function load(): Promise<void> {
    const id = shown.value?.id
    const judge = judgeName.value
    const current = latest.start()
    // First: an error of an experiment or judge no longer shown is not this one's.
    error.value = null
    if (!id || !judge) return
    try {
      const reply = await call('experiments:verdict', { id, judge })
      if (current()) answer.value = { id, judge, reply }
    } catch (e) {
      if (!current()) return
      // The tables before were of the grades as they were: not left under the error as if they held now.
      answer.value = null
      error.value = `Whether the verdict holds could not be worked out: ${errorMessage(e)}`
    }
  }
  // Again when the set's grades change (a rating, a settled grade, a run that graded): the three tables follow them.
  watch([() => shown.value?.id, judgeName, () => sets.set], () => void load(), { immediate: true })

  const reply = computed(() => (answer.value && answer.value.id === shown.value?.id && answer.value.judge === judgeName.value ? answer.value.reply : null))
  const rows = computed(() => {
    const found = reply.value
    if (!found) return []
    return found.verdicts.map((verdict) => {
      const under = GRADES.map((grades) => {
        const row = found.rows.find((each) => each.side === verdict.side && each.metric === verdict.metric && each.grades === grades)
        // Holm's p, what `significant` reads (as the other verdict tables show it); n the queries paired.
        return row ? { delta: signed(row.delta), p: pValue(row.pAdjusted), significant: row.significant, n: row.n } : { delta: '—', p: '—', significant: false, n: 0 }
      })
      const state = verdict.signChanges ? 'sign' : verdict.significanceChanges ? 'significance' : 'holds'
      const stateText = verdict.signChanges && verdict.significanceChanges ? 'sign and significance change' : verdict.signChanges ? 'sign changes' : verdict.significanceChanges ? 'significance changes' : 'holds'
      return { key: `${verdict.side} ${verdict.metric}`, side: verdict.side, metric: labels.value[verdict.metric] ?? verdict.metric, under, state, stateText }
    })
  })
  const summary = computed(() => {
    const list = rows.value
    if (!reply.value) return ''
    if (list.length === 0) return 'No metric to weigh.'
    const holding = list.filter((row) => row.state === 'holds').length
    return `${holding} of ${list.length} verdicts hold whichever grades are used.`
  })

  /** The first table's column: the people, or a set's other raters where no person graded it. */
  const referenceName = computed(() => (reply.value && !reply.value.reference.people ? 'Other raters' : 'People'))
  const referenceText = computed(() =>
    reply.value && !reply.value.reference.people ? `No person has graded this set: "Other raters" are ${reply.value.reference.raters.join(', ') || 'none'}.` : '',
  )
  /**
   * How much of each side the judge graded, and a warning when the sides
   * differ: a side graded less reads worse in the judge's column only because
   * its items count as unjudged there.
   */
  const coverageText = computed(() => {
    const found = reply.value?.coverage ?? []
    if (found.length === 0) return ''
    const shares = found.map((side) => (side.items === 0 ? 1 : side.graded / side.items))
    const parts = found.map((side) => `${side.side} ${side.graded.toLocaleString('en-US')} of ${side.items.toLocaleString('en-US')}`)
    const uneven = Math.max(...shares) - Math.min(...shares) > 0.05
    return `${judgeRater({ name: judgeName.value ?? '' })} graded ${parts.join(', ')} of each side's top items.${uneven ? ' The sides are not judged alike: judge the side it graded less (choose its config in Figures, then Judge) before reading its column.' : ''}`
  })
  const coverageUneven = computed(() => coverageText.value.includes('not judged alike'))
  return { coverageText, coverageUneven, referenceName, referenceText, judgeOptions, judgeName, judgeRaterName: computed(() => (judgeName.value ? judgeRater({ name: judgeName.value }) : 'Judge')), reply, rows, summary, error, hasJudges: computed(() => store.judges.length > 0) }
}
