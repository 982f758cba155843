import { computed, ref, shallowRef, watch } from 'vue'
import type { JudgeCalibration } from '../../../shared/ipc/judge-contract'
import { judgeRater, type Judge } from '../../../shared/relevance/llm-judge'
import { call, errorMessage } from '../../api/explorer-client'
import { latestCall } from '../../stores/latest-call'
import { isDemoJudge, useLlmJudgesStore } from '../../stores/llm-judges'
import { useQuerySetsStore } from '../../stores/query-sets'
import { figure } from './figure-text'
import type { FigureCell } from './useAgreementPanel'

const cell = (value: number | null, reason: string | undefined, format: (value: number) => string = figure): FigureCell =>
  value === null ? { text: '—', reason: reason ?? 'not defined' } : { text: format(value), reason: null }
const percent = (share: number): string => `${(share * 100).toFixed(1)}%`

/**
 * How far one LLM judge agrees with the set's people (`judges:calibration`,
 * worked out by main): the figures on the items both graded, each missing
 * one with its reason, the confusion matrix (people's grade down the side,
 * the judge's across), and the items where they differ most with the
 * model's explanation beside the people's grades, each to Open in Results
 * or to Settle (SettleControls.vue, as in the disagreements table). Read
 * again when the set changes (a rating, a settled grade) or a run graded.
 */
export function useJudgeCalibration(props: { judge: Judge }) {
  const sets = useQuerySetsStore()
  const judges = useLlmJudgesStore()

  const report = shallowRef<JudgeCalibration | null>(null)
  const error = ref<string | null>(null)
  const latest = latestCall()

  async function load(): Promise<void> {
    const set = sets.chosen
    const current = latest.start()
    error.value = null
    if (!set) {
      report.value = null
      return
    }
    try {
      const found = await call('judges:calibration', { judge: props.judge.name, set })
      if (current()) report.value = found
    } catch (e) {
      if (!current()) return
      // The figures before no longer answer for the grades now: not left under the error as if they did.
      report.value = null
      error.value = errorMessage(e)
    }
  }
  watch([() => sets.set, () => props.judge.name, () => judges.gradedRuns], () => void load(), { immediate: true })

  const rater = computed(() => judgeRater(props.judge))
  const demo = computed(() => isDemoJudge(props.judge))
  const labelOf = (grade: number): string => sets.gradeText(grade)
  const figures = computed(() => {
    const found = report.value
    if (!found) return []
    return [
      { name: 'Items both graded', cell: { text: found.n.toLocaleString('en-US'), reason: null } },
      { name: "Cohen's κ, quadratic", cell: cell(found.kappaQuadratic, found.reasons.kappaQuadratic) },
      { name: "Krippendorff's α, ordinal", cell: cell(found.alphaOrdinal, found.reasons.alphaOrdinal) },
      { name: 'Agreement', cell: cell(found.agreement, found.reasons.agreement, percent) },
    ]
  })
  const staleText = computed(() => {
    const stale = report.value?.stale
    if (stale === null || stale === undefined || stale === 0) return ''
    return `${stale.toLocaleString('en-US')} of its grades ${stale === 1 ? 'is' : 'are'} stale: made under another prompt, model or item content.`
  })
  const scaleLabels = computed(() => (report.value?.scale ?? []).map(labelOf))
  const confusion = computed(() => report.value?.confusion ?? [])
  const texts = computed(() => new Map((sets.set?.queries ?? []).map((query) => [query.id, query.text])))
  const rows = computed(() =>
    (report.value?.differences ?? []).map((row) => ({
      key: `${row.query} ${row.item}`,
      query: row.query,
      text: row.text || texts.value.get(row.query) || row.query,
      item: row.item,
      people: row.people.map((grade) => `${grade.rater} ${grade.grade}`),
      peopleGrade: figure(row.peopleGrade),
      judgeGrade: labelOf(row.judgeGrade),
      explanation: row.explanation ?? '',
      settled: row.settled === null ? '' : `settled: ${labelOf(row.settled)}`,
    })),
  )
  /** Who the judge is measured against: the people, or a set's other raters where no person graded it (raters.ts's referenceRaters). */
  const against = computed(() => (report.value && !report.value.reference.people ? "the set's other raters" : 'the people'))
  /** The same in the tables' captions and headers: they must not say "People" of rule-made or imported raters. */
  const referenceName = computed(() => (report.value && !report.value.reference.people ? 'Other raters' : 'People'))
  const referenceGrade = computed(() => (referenceName.value === 'People' ? "People's grade" : "Other raters' grade"))
  const referenceText = computed(() => {
    const found = report.value
    if (!found || found.reference.people) return ''
    if (found.reference.raters.length === 0) return 'No person and no other rater has graded this set: there is nothing to measure the judge against yet.'
    return `No person has graded this set: ${rater.value} is measured against its other raters, ${found.reference.raters.join(', ')}.`
  })
  const differencesText = computed(() => {
    const found = report.value
    if (!found) return ''
    if (found.n === 0) return `No item is graded by both ${rater.value} and ${found.reference.people ? 'a person' : 'another rater'} yet.`
    return found.differences.length === 0 ? `${rater.value} and ${against.value} agree on every item both graded.` : ''
  })

  /** What the last settle did, said above the differences. */
  const status = ref('')

  return { report, error, rater, demo, against, referenceName, referenceGrade, referenceText, figures, staleText, scaleLabels, confusion, rows, differencesText, status }
}
