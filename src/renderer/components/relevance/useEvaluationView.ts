import { storeToRefs } from 'pinia'
import { computed, ref } from 'vue'
import { JUDGMENT_FORMATS, type JudgmentFormat, type JudgmentGrades } from '../../../shared/relevance/judgment-files'
import { DEFAULT_AGGREGATE } from '../../../shared/relevance/grade-aggregate'
import { ratersOf } from '../../../shared/relevance/raters'
import { scaleOf } from '../../../shared/relevance/query-set'
import { gradeSourcesOf, settingsText } from '../../../shared/relevance/settings-text'
import { errorMessage } from '../../api/explorer-client'
import { useJudgeNext, type NamedPair } from '../../composables/useJudgeNext'
import { useTableSort } from '../../composables/useTableSort'
import { useAgreementStore } from '../../stores/agreement'
import { useConnectionsStore } from '../../stores/connections'
import { DEPTHS, useEvaluationsStore } from '../../stores/evaluations'
import { useQuerySetsStore } from '../../stores/query-sets'
import { useToastsStore } from '../../stores/toasts'
import { useWorkspaceStore } from '../../stores/workspace'
import { plainOptions } from '../controls/field-options'
import { figure } from './figure-text'
import { useQuerySetPicker } from '../controls/useQuerySetPicker'

export const FORMAT_LABELS: Record<JudgmentFormat, string> = { 'quepid-csv': 'Quepid CSV', 'trec-qrels': 'TREC qrels', 'rre-json': 'RRE ratings JSON' }

/**
 * The Evaluation view's logic: the set chosen and its dialogs, where it is
 * evaluated, the figures of the evaluation shown (scored with the judgments
 * as they are now), the table's order, judging, and judgment files in and out.
 */
export function useEvaluationView() {
  const sets = useQuerySetsStore()
  const evaluations = useEvaluationsStore()
  const connections = useConnectionsStore()
  const toasts = useToastsStore()
  const workspace = useWorkspaceStore()
  const { summaries, chosen, set } = storeToRefs(sets)
  const { shown, scored, kept, run, running, error, depth, config, labels } = storeToRefs(evaluations)

  /** The part shown: the evaluation's figures, or how far the set's raters agree (AgreementPanel); kept while the view is away. */
  const { part } = storeToRefs(useAgreementStore())
  const dialog = ref<'new' | 'edit' | null>(null)
  /** The queries the Judge dialog walks (null: all of the set), while it is open. */
  const judging = ref<string[] | null | false>(false)
  /** Judge next's pairs while the Judge dialog walks them (else it walks `judging`'s queries). */
  const judgingPairs = ref<NamedPair[] | null>(null)
  const { sort, sortBy, ariaSort } = useTableSort<string>()
  const chartMetric = ref<string | null>(null)
  const fileInput = ref<HTMLInputElement | null>(null)
  /** Which grades an export writes: '' as each format keeps best (every rater's in Quepid CSV, the aggregate in qrels and RRE), 'aggregate', or 'rater:NAME'. */
  const exportGrades = ref('')

  const { summary } = useQuerySetPicker()
  const connectionOptions = computed(() => connections.connections.map((connection) => ({ value: connection.id, label: connection.name })))
  const connectionValue = computed({
    get: () => evaluations.targetConnectionId ?? '',
    set: (value: string) => (evaluations.connectionId = value || null),
  })
  /** The template's own, then the configurations the editor's API describes, with the one typed. */
  const configOptions = computed(() => [
    { value: '', label: "The template's own" },
    ...plainOptions([...new Set([...(connections.description?.configs ?? []), config.value].filter(Boolean))]),
  ])
  const gradesOptions = computed(() => {
    const current = set.value
    const rule = current?.settings?.aggregate ?? DEFAULT_AGGREGATE
    return [
      { value: '', label: "Each rater's in Quepid CSV, the aggregate in qrels and RRE" },
      { value: 'aggregate', label: `The aggregate (${rule}), a fraction rounded half up` },
      ...(current ? ratersOf(current) : []).map((rater) => ({ value: `rater:${rater.name}`, label: `${rater.name}'s grades` })),
    ]
  })
  /** The chosen grades while the set still has them (a rater gone after an edit falls back to the default). */
  const chosenGrades = computed((): JudgmentGrades | undefined => {
    const value = exportGrades.value
    if (!gradesOptions.value.some((option) => option.value === value)) return undefined
    if (value === 'aggregate') return { kind: 'aggregate' }
    return value.startsWith('rater:') ? { kind: 'rater', rater: value.slice('rater:'.length) } : undefined
  })
  const settingsLine = computed(() => {
    const current = set.value
    const evaluation = shown.value
    if (!current) return ''
    return settingsText(sets.settings ?? evaluation!.settings, scaleOf(current), evaluation?.depth, gradeSourcesOf(current))
  })
  const metricKeys = computed(() => scored.value?.metrics ?? [])
  const metricOptions = computed(() => metricKeys.value.map((key) => ({ value: key, label: labels.value[key] ?? key })))
  const progress = computed(() => (run.value ? `${run.value.done} of ${run.value.total} queries` : ''))
  /** The chart's metric: the one chosen, while the evaluation shown has it; else its first. */
  const shownMetric = computed({
    get: () => (chartMetric.value !== null && metricKeys.value.includes(chartMetric.value) ? chartMetric.value : (metricKeys.value[0] ?? null)),
    set: (key: string | null) => (chartMetric.value = key),
  })

  const rows = computed(() => {
    const queries = scored.value?.queries ?? []
    const { by, descending } = sort.value
    if (by === 'set') return queries
    const value = (query: (typeof queries)[number]): number | string =>
      by === 'query' ? query.text.toLowerCase() : by === 'unjudged' ? query.unjudged : (query.scores?.[by] ?? -1)
    const ordered = [...queries].sort((a, b) => {
      const x = value(a)
      const y = value(b)
      return x < y ? -1 : x > y ? 1 : 0
    })
    return descending ? ordered.reverse() : ordered
  })
  const unjudgedText = computed(() => {
    const figures = scored.value
    if (!figures || !shown.value) return ''
    const queries = figures.queries.filter((query) => query.unjudged > 0).length
    if (figures.unjudged === 0) return `Every result in the top ${shown.value.judgeDepth} of every query is judged.`
    return `${figures.unjudged} unjudged result${figures.unjudged === 1 ? '' : 's'} in the top ${shown.value.judgeDepth} of ${queries} ${queries === 1 ? 'query' : 'queries'}.`
  })
  const countedText = computed(() => {
    const figures = scored.value
    if (!figures) return ''
    const parts = [`means over ${figures.counted} of ${figures.queries.length} queries`]
    if (figures.unjudgedQueries > 0) parts.push(`${figures.unjudgedQueries} with no judgment left out`)
    if (figures.failed > 0) parts.push(`${figures.failed} failed`)
    return parts.join(' · ')
  })
  /** What to judge next in the evaluation shown (main works it out with the set's judgments as they are now): the figures' intervals and the queue. */
  const judgeNext = useJudgeNext('eval:judge-next', () => (shown.value && set.value && shown.value.set === set.value.name ? shown.value.id : null))
  const intervals = computed(() => judgeNext.current.value)
  const queryIntervals = computed(() => new Map((intervals.value?.queries ?? []).map((query) => [query.id, query.figures])))
  /** "0.598–0.701": where a figure could go with the unjudged judged; '' when nothing can move it (or it has no interval: Coverage, a failed query). */
  const rangeText = (interval: { low: number; high: number } | null | undefined): string =>
    interval && figure(interval.low) !== figure(interval.high) ? `${figure(interval.low)}–${figure(interval.high)}` : ''
  const meanRange = (key: string): string => rangeText(intervals.value?.means[key])
  const queryRange = (queryId: string, key: string): string => rangeText(queryIntervals.value.get(queryId)?.[key])
  /** What the ranges under the means and the figures are, said once (a card has no room to say it under each). */
  const rangesText = computed(() =>
    intervals.value && shown.value && metricKeys.value.some((key) => meanRange(key) !== '')
      ? `Under a figure: the range it could take with the unjudged results in the top ${shown.value.judgeDepth} judged, from the lowest grade to the highest.`
      : '',
  )
  const judgeNextText = computed(() => judgeNext.current.value?.summary ?? judgeNext.error.value ?? '')
  const judgeNextCount = computed(() => judgeNext.pairs.value.length)
  /** Judge next: the Judge dialog walks the queue, most telling first. */
  function judgeNextWalk(): void {
    if (judgeNextCount.value === 0) return
    judgingPairs.value = judgeNext.pairs.value
    judging.value = null
  }
  function judged(): void {
    judging.value = false
    judgingPairs.value = null
  }

  const keptOptions = computed(() =>
    kept.value.map((entry) => {
      const first = entry.scored.metrics[0]
      // The one shown gives the figures its cards give: scored with the judgments as they are now, not as they were when it ran.
      const means = entry.id === shown.value?.id && scored.value ? scored.value.means : entry.scored.means
      const mean = first ? ` · ${labels.value[first] ?? first} ${figure(means[first])}` : ''
      const at = new Date(entry.at)
      // The time alone for today's: the list is mostly of one sitting.
      const today = at.toDateString() === new Date().toDateString()
      const when = at.toLocaleString('en-GB', today ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' })
      return { value: entry.id, label: `${when} · ${entry.targetText}${mean}${entry.state === 'cancelled' ? ' · cancelled' : ''}` }
    }),
  )

  async function removeSet(): Promise<void> {
    const name = chosen.value
    if (!name || !window.confirm(`Delete the query set "${name}" with its ${summary.value?.judgments ?? 0} judgments from the workspace?`)) return
    try {
      await sets.remove(name)
    } catch (e) {
      toasts.show(`The set was not deleted: ${errorMessage(e)}`, { tone: 'danger' })
    }
  }

  /** Import judgments: Electron's open dialog (main reads the file), or Chromium's file picker in the browser host. */
  async function importJudgments(): Promise<void> {
    if (workspace.host === 'electron') await importFrom()
    else fileInput.value?.click()
  }

  async function onFile(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement
    const file = input.files?.[0]
    input.value = ''
    if (file) await importFrom(file)
  }

  async function importFrom(file?: File): Promise<void> {
    try {
      const note = await sets.importFile(file)
      if (note !== null) toasts.show(note)
    } catch (e) {
      toasts.show(errorMessage(e), { tone: 'danger' })
    }
  }

  async function exportAs(format: JudgmentFormat): Promise<void> {
    try {
      await sets.exportJudgments(format, chosenGrades.value)
    } catch (e) {
      toasts.show(`The judgments were not exported: ${errorMessage(e)}`, { tone: 'danger' })
    }
  }

  async function exportRun(): Promise<void> {
    try {
      const written = await evaluations.exportRun()
      if (written) toasts.show(`Exported the TREC run of ${written.queries} quer${written.queries === 1 ? 'y' : 'ies'}: ${written.fileName}.`, { key: 'export' })
    } catch (e) {
      toasts.show(`The run file was not written: ${errorMessage(e)}`, { tone: 'danger' })
    }
  }

  /**
   * The query in the grid, to rate: on the shown evaluation's own target (connection, API, config, version),
   * so the ranking rated is the one whose figures are on screen, whatever the pickers say now; with no
   * evaluation shown, where the pickers point.
   */
  function open(queryId: string, item?: string): void {
    const evaluation = shown.value
    if (evaluation?.target && evaluation.set === chosen.value) {
      void sets.openInGrid(queryId, evaluation.target, `${evaluation.targetText}, as evaluated (depth ${evaluation.depth})`, item)
      return
    }
    const target = evaluations.targetConnectionId
    void sets.openInGrid(queryId, target ? { connectionId: target, ...(config.value ? { config: config.value } : {}) } : undefined, undefined, item)
  }

  /** A disagreement's Open: its query in the grid as the query table's Open does it, the item marked there. */
  function openItem(queryId: string, item: string): void {
    open(queryId, item)
  }

  return {
    part, openItem, judgingPairs, meanRange, queryRange, judgeNextText, judgeNextCount, judgeNextWalk, judged, rangesText,
    sets, evaluations, summaries, chosen, set, summary, shown, scored, kept, run, running, error, depth, config, labels,
    dialog, judging, sort, sortBy, ariaSort, rows, metricKeys, metricOptions, chartMetric, shownMetric, fileInput,
    connectionOptions, connectionValue, configOptions, settingsLine, progress, unjudgedText, countedText, keptOptions,
    depthOptions: plainOptions(DEPTHS), formats: JUDGMENT_FORMATS, formatLabels: FORMAT_LABELS, figure, exportGrades, gradesOptions,
    removeSet, importJudgments, onFile, exportAs, exportRun, open,
  }
}
