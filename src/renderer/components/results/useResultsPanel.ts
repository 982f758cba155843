import { storeToRefs } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import { itemKey } from '../../../shared/compare/item-key'
import type { ResultItem } from '../../../shared/responses'
import { attributeColumns, columnsFor, ratingColumn, sameColumns, withRatingColumn, type Column } from '../../../shared/results/table'
import { MAX_LOADED_ROWS } from '../../../shared/results/paging'
import { judgeRater } from '../../../shared/relevance/llm-judge'
import { useChainStore } from '../../stores/chain'
import { isDemoJudge, useLlmJudgesStore } from '../../stores/llm-judges'
import { useQuerySetsStore } from '../../stores/query-sets'
import { useQueryStore } from '../../stores/query'
import { judgeColumns, withJudgeColumns } from './judge-columns'

const DEFAULT_ATTRIBUTES = 6
const number = (value: number) => value.toLocaleString('en-US')

/** Targets of "Load more": the next page, or the grid filled up to a number of rows. */
export const LOAD_TARGETS = [
  { value: 'page', label: 'the next page' },
  { value: '1000', label: 'up to 1,000 rows' },
  { value: '10000', label: 'up to 10,000 rows' },
] as const

/** The toolbar's line for an answer that is not rows. */
const ANSWER_SUMMARIES = { count: 'Count', statistics: 'Statistics', resultitem: 'One result object', options: "A facet's options" } as const

/** The results panel's logic: grid or raw view, columns, paging, loading more, the row detail, and rating a set's query. */
export function useResultsPanel() {
  const editor = useChainStore()
  const query = useQueryStore()
  const sets = useQuerySetsStore()
  const { items, results, lastReply, phase, progress, page, pageCount, pager, hasNext, hasPrevious, canLoadMore, running, shownOffset, shownEnd, total, edited, answer, shown } =
    storeToRefs(query)

  const view = ref<'grid' | 'raw'>('grid')
  /** After a failed run the rows shown answer an earlier chain: say so rather than let them pass for this one. */
  const stale = computed(() => phase.value === 'error')

  // Columns: the attributes the user chose, or the first six of each tuple column.
  const chosen = ref<Set<string> | null>(null)
  // The list as it was while rows appended bring no column: a new list, even an equal one, re-renders every row in view.
  const answerColumns = computed<Column[]>((before) => {
    const next = columnsFor(items.value, { maxAttributes: DEFAULT_ATTRIBUTES, chosen: chosen.value })
    return before && sameColumns(before, next) ? before : next
  })
  // While a set's query is rated, its grades as a column after Rank. Apart from the answer's columns, so a
  // rating (a new map of grades) builds one column, not the whole set from every row again.
  const rating = computed(() => (sets.ratedQuery ? ratingColumn(sets.ratingGrades, sets.scale) : null))
  // The LLM judges' grades of the query rated, read-only, after the person's own (the explanation as each cell's title).
  const llmJudges = useLlmJudgesStore()
  const demoRaters = computed(() => new Set(llmJudges.judges.filter(isDemoJudge).map(judgeRater)))
  // In the workspace's judges' order, the same from query to query.
  const judgeRaters = computed(() => llmJudges.judges.map(judgeRater))
  const judged = computed(() => (sets.ratedQuery ? judgeColumns(sets.set, sets.ratingQuery, sets.scale, demoRaters.value, judgeRaters.value) : []))
  const columns = computed(() => withJudgeColumns(withRatingColumn(answerColumns.value, rating.value), judged.value))
  /** A grade key on the grid's active row (null: Backspace, cleared). */
  const rate = (item: ResultItem, grade: number | null) => void sets.rateInGrid(itemKey(item), grade)

  // The item a disagreement's Open marks. Sought only in rows that answer a run (not while one is on its way,
  // when the rows are still the last query's, nor after a failed one).
  const answered = computed(() => phase.value !== 'running' && phase.value !== 'error' && phase.value !== 'idle')
  /** The marked item's row in the grid; null while none is marked or it is not among the rows. */
  const markedRow = computed(() => {
    const key = sets.markedItem
    if (key === null || !answered.value) return null
    const at = items.value.findIndex((item) => itemKey(item) === key)
    return at < 0 ? null : at
  })
  /** The answer has come and the marked item is not in it: the banner says so. */
  const markedMissing = computed(() => sets.markedItem !== null && answered.value && markedRow.value === null)
  // The grid brings the marked row into view and makes it active once per Open (the mark, a new object each
  // time): a later run, or a page gone back to, must not take the focus from the editor or the pager.
  const revealed = shallowRef<object | null>(null)
  const revealRow = computed(() => (sets.marked !== null && sets.marked !== revealed.value ? markedRow.value : null))
  const onRevealed = () => (revealed.value = sets.marked)
  const available = computed<{ key: string; label: string }[]>((before) => {
    const next = attributeColumns(items.value)
    const same = before?.length === next.length && before.every((column, i) => column.key === next[i]!.key && column.label === next[i]!.label)
    return same && before ? before : next
  })
  const shownAttributes = computed(() => new Set(columns.value.filter((c) => c.kind === 'attribute').map((c) => c.key)))
  function toggleColumn(key: string, on: boolean): void {
    const next = new Set(shownAttributes.value)
    if (on) next.add(key)
    else next.delete(key)
    chosen.value = next
  }
  const resetColumns = () => (chosen.value = null)

  const detail = shallowRef<ResultItem | null>(null)
  const openDetail = (item: ResultItem) => (detail.value = item)
  const closeDetail = () => (detail.value = null)

  const summary = computed(() => {
    if (answer.value) return ANSWER_SUMMARIES[answer.value.type]
    if (items.value.length === 0) return total.value === null ? 'No rows' : `No rows of ${number(total.value)}`
    const range = `Rows ${number(shownOffset.value + 1)}–${number(shownEnd.value)}`
    return total.value === null ? range : `${range} of ${number(total.value)}`
  })
  const timing = computed(() => (lastReply.value ? `${Math.round(lastReply.value.timings.totalMs)} ms` : ''))
  /** After Load more the grid holds several pages: the pager names the rows loaded and the pages they span, not "page 1". */
  const rangeLabel = computed(() => {
    const view = pager.value
    if (view.kind !== 'range') return ''
    const rows = `Rows ${number(view.first)}–${number(view.last)}`
    return view.total === null ? rows : `${rows} of ${number(view.total)}`
  })
  /** For screen readers (and the range's tooltip): the page shown, or the pages the loaded rows span. */
  const pageLabel = computed(() => {
    const view = pager.value
    const of = pageCount.value === null ? '' : ` of ${number(pageCount.value)}`
    return view.kind === 'range'
      ? `${rangeLabel.value}, pages ${number(view.firstPage)}–${number(view.lastPage)}${of}`
      : `Page ${number(page.value)}${of}`
  })

  // "Jump to a page": what is typed is kept until it is sent, then follows the page shown (empty while several are).
  // A number, as v-model reads a number box: a string ("1" beside the box's 1) made every render of the panel write
  // the box's value again, which lays out the page there and then (3 to 20 ms of each Run).
  const pageText = (): number | '' => (pager.value.kind === 'page' ? pager.value.page : '')
  const pageInput = ref<number | string>(pageText())
  watch(pager, () => (pageInput.value = pageText()))
  function jump(): void {
    const wanted = Math.floor(Number(pageInput.value))
    const last = pageCount.value ?? Number.POSITIVE_INFINITY
    if (pageInput.value === '' || !Number.isFinite(wanted) || wanted < 1) {
      pageInput.value = pageText()
      return
    }
    const target = Math.min(wanted, last)
    if (target !== page.value || pager.value.kind === 'range') void query.goToPage(target)
    else pageInput.value = pageText()
  }

  const loadTarget = ref<(typeof LOAD_TARGETS)[number]['value']>('page')
  function loadMore(): void {
    const rows = loadTarget.value === 'page' ? items.value.length + Number(editor.count) : Number(loadTarget.value)
    void query.loadMore(Math.min(rows, MAX_LOADED_ROWS))
  }
  const progressShare = computed(() => (progress.value ? progress.value.loaded / Math.max(1, progress.value.target) : 0))
  const atCap = computed(() => items.value.length >= MAX_LOADED_ROWS)

  /** Export writes the rows of the request shown (main asks the server again, in the format chosen). */
  const exportOpen = ref(false)
  const canExport = computed(() => shown.value !== null && items.value.length > 0)

  return {
    query, items, results, lastReply, phase, progress, progressShare, running, hasNext, hasPrevious, canLoadMore, atCap,
    stale, view, columns, available, shownAttributes, toggleColumn, resetColumns,
    edited, detail, openDetail, closeDetail, summary, timing, pager, rangeLabel, pageLabel, pageCount, pageInput, jump,
    loadTargets: LOAD_TARGETS, loadTarget, loadMore, answer, exportOpen, canExport, rating, rate,
    markedRow, markedMissing, revealRow, onRevealed,
  }
}
