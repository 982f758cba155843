import { storeToRefs } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { SetAgreementReply } from '../../../shared/ipc/relevance-contract'
import { judgeRater } from '../../../shared/relevance/llm-judge'
import { useAgreementStore } from '../../stores/agreement'
import { useLlmJudgesStore } from '../../stores/llm-judges'
import { useQuerySetsStore } from '../../stores/query-sets'
import type { FieldOption } from '../controls/field-options'
import { figure } from './figure-text'

/** A figure as the Agreement part shows it: the number, or "—" and why there is none. */
export interface FigureCell {
  text: string
  reason: string | null
}

/** The queries listed under "read differently", lowest alpha first. */
export const LOWEST_QUERIES = 50

const KIND_TEXT: Record<string, string> = { person: 'person', import: 'imported file', model: 'model', adjudication: 'adjudicator' }

const cell = (value: number | null, reason: string | undefined, format: (value: number) => string = figure): FigureCell =>
  value === null ? { text: '—', reason: reason ?? 'not defined' } : { text: format(value), reason: null }
const percent = (share: number): string => `${(share * 100).toFixed(1)}%`
const plural = (count: number, one: string, many: string): string => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`

/**
 * The Agreement part's logic: the chosen set's report (read while the part is
 * shown, again when the set changes: a rating, a settled grade), its figures
 * as cells with the reason of any that is missing, the confusion matrix of
 * the pair the two selects choose, and the queries the raters read most
 * differently. With one rater, the sentence saying how to add another.
 */
export function useAgreementPanel() {
  const agreement = useAgreementStore()
  const sets = useQuerySetsStore()
  const { report, loading, error, steps } = storeToRefs(agreement)

  watch([() => sets.set, steps], () => void agreement.load(), { immediate: true })

  const scale = computed(() => sets.scale)
  /** Raters who graded something: the ones the figures compare. */
  const active = computed(() => (report.value?.raters ?? []).filter((rater) => rater.judgments > 0))
  const raterRows = computed(() =>
    (report.value?.raters ?? []).map((rater) => ({ name: rater.rater, kind: rater.kind ? KIND_TEXT[rater.kind]! : 'person', judgments: rater.judgments.toLocaleString('en-US') })),
  )
  const single = computed(() => report.value !== null && active.value.length < 2)
  const singleText = computed(() => {
    const only = active.value[0]
    const who = only ? `this set has one, ${only.rater} (${plural(only.judgments, 'judgment', 'judgments')})` : 'this set has no judgments yet'
    return `Agreement needs two raters: ${who}. To add one, rate under your own name (Judge, or a digit key in the grid once a query is open), or import a judgments file (Import judgments): its grades come in as a rater of their own.`
  })

  const pairRows = computed(() =>
    (report.value?.pairs ?? []).map((pair) => ({
      key: `${pair.a}\u0000${pair.b}`,
      name: `${pair.a} – ${pair.b}`,
      n: pair.n.toLocaleString('en-US'),
      cells: [
        cell(pair.agreement, pair.reasons.agreement, percent),
        cell(pair.kappa, pair.reasons.kappa),
        cell(pair.kappaLinear, pair.reasons.kappaLinear),
        cell(pair.kappaQuadratic, pair.reasons.kappaQuadratic),
      ],
    })),
  )

  const overall = computed(() => {
    const found = report.value
    if (!found) return []
    const { fleiss, alpha } = found
    const alphaOn = `on ${plural(alpha.n, 'item', 'items')} with two grades or more`
    return [
      { name: "Fleiss' kappa", cell: cell(fleiss.kappa, fleiss.reason), on: fleiss.raters === null ? 'no item graded by two raters or more' : `on ${plural(fleiss.n, 'item', 'items')} graded by exactly ${fleiss.raters} raters` },
      { name: "Krippendorff's alpha, nominal", cell: cell(alpha.nominal, alpha.reasons.nominal), on: alphaOn },
      { name: "Krippendorff's alpha, ordinal", cell: cell(alpha.ordinal, alpha.reasons.ordinal), on: alphaOn },
      { name: "Krippendorff's alpha, interval", cell: cell(alpha.interval, alpha.reasons.interval), on: alphaOn },
    ]
  })

  // The confusion matrix's pair: rows one rater's grades, columns another's; the first pair until chosen.
  const chosenRows = ref<string | null>(null)
  const chosenColumns = ref<string | null>(null)
  const raterOptions = computed<FieldOption<string>[]>(() => active.value.map((rater) => ({ value: rater.rater, label: rater.rater })))
  const pick = (chosen: string | null, fallback: number): string => (chosen !== null && active.value.some((rater) => rater.rater === chosen) ? chosen : (active.value[fallback]?.rater ?? ''))
  const rowsRater = computed({ get: () => pick(chosenRows.value, 0), set: (name: string) => (chosenRows.value = name) })
  const columnsRater = computed({ get: () => pick(chosenColumns.value, 1), set: (name: string) => (chosenColumns.value = name) })
  const confusion = computed(() => confusionOf(report.value, rowsRater.value, columnsRater.value))
  const confusionNote = computed(() => {
    if (rowsRater.value === columnsRater.value) return 'Choose two different raters.'
    const matrix = confusion.value
    if (!matrix) return rowsRater.value && columnsRater.value ? `${rowsRater.value} and ${columnsRater.value} are not among the pairs listed: they share few items or none.` : ''
    const n = matrix.reduce((sum, row) => sum + row.reduce((a, b) => a + b, 0), 0)
    return n === 0 ? `${rowsRater.value} and ${columnsRater.value} graded no item in common.` : `${plural(n, 'item', 'items')} both graded: rows ${rowsRater.value}'s grade, columns ${columnsRater.value}'s.`
  })
  const scaleLabels = computed(() => scale.value.map((step) => `${step.grade} ${step.label}`))

  const texts = computed(() => new Map((sets.set?.queries ?? []).map((query) => [query.id, query.text])))
  const rated = computed(() => (report.value?.queries ?? []).filter((query) => query.n > 0))
  /** Lowest ordinal alpha first; a query whose alpha is undefined (all alike, one item) after those with one. */
  const queryRows = computed(() =>
    [...rated.value]
      .sort((a, b) => (a.alpha ?? Infinity) - (b.alpha ?? Infinity) || a.id.localeCompare(b.id))
      .slice(0, LOWEST_QUERIES)
      .map((query) => ({ id: query.id, text: texts.value.get(query.id) ?? query.id, n: query.n.toLocaleString('en-US'), cell: cell(query.alpha, query.reason) })),
  )
  /** With many raters only the pairs sharing the most items come (set-agreement.ts): the caption says so. */
  const pairsCaption = computed(() => {
    const left = report.value?.pairsLeftOut ?? 0
    if (left === 0) return 'Pairs of raters'
    const shown = report.value?.pairs.length ?? 0
    return `Pairs of raters: the ${shown.toLocaleString('en-US')} sharing the most items, of ${(shown + left).toLocaleString('en-US')}`
  })
  const queriesCaption = computed(() => {
    const count = rated.value.length
    return count > LOWEST_QUERIES ? `The ${LOWEST_QUERIES} queries read most differently, of ${count.toLocaleString('en-US')} with two grades or more` : 'Queries read most differently first'
  })

  /** The workspace's LLM judges with grades in the set: each is calibrated against the people (JudgeCalibration). */
  const judges = useLlmJudgesStore()
  const calibrated = computed(() => {
    const graded = new Set((report.value?.raters ?? []).filter((rater) => rater.judgments > 0).map((rater) => rater.rater))
    return judges.judges.filter((judge) => graded.has(judgeRater(judge)))
  })

  return {
    report, loading, error, raterRows, single, singleText, pairRows, overall, raterOptions, rowsRater, columnsRater,
    confusion, confusionNote, scaleLabels, queryRows, queriesCaption, pairsCaption, calibrated,
  }
}

/** The pair's confusion matrix with `rows`' grades down the side: the report keeps each pair once, rows its first rater. */
function confusionOf(report: SetAgreementReply | null, rows: string, columns: string): number[][] | null {
  if (!report || rows === columns) return null
  const pair = report.pairs.find((each) => (each.a === rows && each.b === columns) || (each.a === columns && each.b === rows))
  if (!pair) return null
  return pair.a === rows ? pair.confusion : pair.confusion[0]!.map((_, column) => pair.confusion.map((row) => row[column]!))
}
