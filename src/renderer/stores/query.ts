import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { problemsForEditor } from '../../shared/chain/editor-chain'
import type { QueryReply } from '../../shared/ipc/contract'
import type { QueryRequest, ResponseType } from '../../shared/query/model'
import { atPage, pagingKey } from '../../shared/query/page-request'
import { singleAnswer, type SingleAnswer } from '../../shared/query/single-answer'
import { validateRequest, type Problem } from '../../shared/query/validate'
import type { ResultItem, ResultsResponse, StatisticsResponse } from '../../shared/responses'
import {
  LOAD_IN_FLIGHT,
  MAX_LOADED_ROWS,
  hasMoreRows,
  inOrder,
  loadMorePlan,
  offsetOfPage,
  pageCount as pagesFor,
  pageNumber,
  pageStart,
  pagerView,
  previousPageOffset,
} from '../../shared/results/paging'
import { cancellableQuery, type QueryCall } from '../api/cancellable-query'
import { ExplorerClientError } from '../api/explorer-client'
import { MARKS } from '../perf/run-marks'
import { DEFAULT_PAGE_SIZE, useChainStore } from './chain'
import { useConnectionsStore } from './connections'
import { useHistoryStore } from './history'
import { failureOf, validationFailure, type QueryFailure } from './query-errors'
import { isRowType, rowsOf } from './response-rows'

/**
 * idle: nothing run yet; running: a page (and the statistics) on the way;
 * loading-more: pages being appended; done / error / cancelled: how the last
 * run ended.
 */
export type QueryPhase = 'idle' | 'running' | 'loading-more' | 'done' | 'error' | 'cancelled'

/** A request that produced rows, and the connection it went to: paging continues it, whatever was edited since. */
interface SentRequest {
  connectionId: string
  request: QueryRequest
  /** The id it was asked with: Load more's pages name it, so History adds them to this run's entry (without: runs of their own). */
  runId?: string
}

/** How a request is sent: `fresh` bypasses the main process's short cache; the others say what History makes of it. */
interface SendOptions {
  fresh?: boolean
  /** Asked alongside the user's run (the statistics beside a page): History leaves it out. */
  keepOutOfHistory?: boolean
  /** A page Load more adds to the run asked as this id: History counts it in that run's entry. */
  continues?: string
}

/** Runs `show` before the next frame is drawn; a few milliseconds on where there are no frames (tests). */
const nextFrame = (show: () => void): void => void (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(show) : setTimeout(show, 16))

/** Runs of the chain (the chain store's) and the answers to them: the page shown, paging, loading more, cancel. */
export const useQueryStore = defineStore('query', () => {
  const connections = useConnectionsStore()
  const editor = useChainStore()
  const history = useHistoryStore()

  // The answers. Rows live in a shallow ref: 10,000 of them must not each become reactive.
  const items = shallowRef<ResultItem[]>([])
  const shownOffset = ref(0)
  /** The page size the rows shown were asked with: the pager counts in it, so it agrees with the grid. */
  const shownCount = ref<number>(DEFAULT_PAGE_SIZE)
  /** The request whose rows are shown (null before the first answer): Load more and the pager continue it. */
  const shown = shallowRef<SentRequest | null>(null)
  const results = shallowRef<ResultsResponse | null>(null)
  const lastReply = shallowRef<QueryReply | null>(null)
  const statistics = shallowRef<StatisticsResponse | null>(null)
  const statisticsReply = shallowRef<QueryReply | null>(null)
  /** The last answer of a type that is not rows (count, statistics, resultitem, options); null while rows are shown. */
  const answer = shallowRef<SingleAnswer | null>(null)
  const lastPageFull = ref(false)
  const phase = ref<QueryPhase>('idle')
  const failure = ref<QueryFailure | null>(null)
  const progress = ref<{ loaded: number; target: number } | null>(null)
  const startedAt = ref<number | null>(null)

  /** Every run and cancel starts anew: the older run's requests are stopped and its answers dropped; each reply's History entry is kept. */
  const runs = cancellableQuery({ recorded: (entry) => history.keep(entry) })

  const running = computed(() => phase.value === 'running' || phase.value === 'loading-more')
  const error = computed(() => failure.value?.message ?? null)
  const total = computed(() => statistics.value?.total ?? null)
  const page = computed(() => pageNumber(shownOffset.value, shownCount.value))
  const pageCount = computed(() => pagesFor(total.value, shownCount.value))
  const shownEnd = computed(() => shownOffset.value + items.value.length)
  const pager = computed(() => pagerView(shownOffset.value, items.value.length, shownCount.value, total.value))
  const hasPrevious = computed(() => shownOffset.value > 0)
  const hasNext = computed(() => results.value !== null && hasMoreRows(shownEnd.value, total.value, lastPageFull.value))
  const canLoadMore = computed(() => hasNext.value && items.value.length < MAX_LOADED_ROWS)

  /** The chain, its options or the connection changed since the rows shown were asked for: Run would give other rows. */
  const edited = computed(() => {
    const from = shown.value
    return from !== null && pagingKey(from.connectionId, from.request) !== pagingKey(connections.selectedId, editor.request(editor.responseType, 0))
  })

  function validate(built: QueryRequest): Problem[] {
    return problemsForEditor(validateRequest(built, { description: connections.description }), editor.chain)
  }

  function send(on: QueryCall, connectionId: string, request: QueryRequest, { fresh, keepOutOfHistory, continues }: SendOptions = {}, requestId?: string): Promise<QueryReply> {
    return on.send('query:run', {
      connectionId, request, requestId, ...(fresh ? { fresh } : {}), ...(keepOutOfHistory ? { keepOutOfHistory } : {}), ...(continues ? { continues } : {}),
    })
  }

  function fail(e: unknown): void {
    phase.value = 'error'
    const ipc = e instanceof ExplorerClientError ? e.error : null
    failure.value = ipc ? failureOf(ipc) : failureOf({ code: 'internal', message: 'Something unexpected went wrong in the window; run again.' })
    editor.problems = ipc?.problems ? problemsForEditor(ipc.problems, editor.chain) : []
    // A keychain that stopped answering turns into memory-only: the bar's badge must say so.
    if (ipc?.code === 'keychain') void connections.refresh()
  }

  /** Checks the chain before anything is sent; false (with messages) when it cannot run. */
  function ready(built: QueryRequest): boolean {
    if (!connections.selectedId) {
      failure.value = validationFailure(['Choose a connection first.'])
      phase.value = 'error'
      return false
    }
    const found = validate(built)
    editor.problems = found
    if (found.length === 0) return true
    failure.value = validationFailure(found.map((problem) => problem.message))
    phase.value = 'error'
    return false
  }

  /**
   * Runs the chain at a page: the rows and, from the first run, the
   * statistics beside them (`results,count` brings its own). A type that is
   * not rows is one request whose answer replaces the rows.
   */
  async function run(pageOffset = 0, withStatistics = true, fresh = false): Promise<void> {
    performance.mark(MARKS.run)
    const type = editor.responseType
    if (!isRowType(type)) return runSingle(type, fresh)
    const built = editor.request(type, pageOffset)
    if (!ready(built)) return
    const target = { connectionId: connections.selectedId!, request: built }
    await show(target, pageOffset, Number(editor.count), withStatistics && type !== 'results,count' ? editor.request('statistics') : null, fresh)
  }

  /**
   * One request of a type that is not rows: its answer is shown in place of
   * the rows, and paging stops. The statistics are asked beside it, as for
   * rows, so the side panel speaks of the same chain.
   */
  async function runSingle(type: ResponseType, fresh: boolean): Promise<void> {
    const built = editor.request(type)
    if (!ready(built)) return
    await asking(async (call) => {
      const [reply, statisticsAnswer] = await Promise.all([
        send(call, connections.selectedId!, built, { fresh }),
        type === 'statistics' ? Promise.resolve(null) : send(call, connections.selectedId!, editor.request('statistics'), { fresh, keepOutOfHistory: true }),
      ])
      if (!call.current()) return
      performance.mark(MARKS.reply)
      answer.value = singleAnswer(built, reply.body)
      const stats = statisticsAnswer ?? reply
      statistics.value = stats.body as StatisticsResponse
      statisticsReply.value = stats
      lastReply.value = reply
      items.value = []
      results.value = null
      shown.value = null
      shownOffset.value = 0
      editor.offset = 0
      phase.value = 'done'
    })
  }

  /**
   * A run, or a page asked in place of the rows shown: it takes over from the
   * call before, the window shows it running until it ends, and its failure
   * is shown only while it is still the latest call.
   */
  async function asking(work: (call: QueryCall) => Promise<void>): Promise<void> {
    const call = runs.start()
    phase.value = 'running'
    failure.value = null
    progress.value = null
    startedAt.value = performance.now()
    try {
      await work(call)
    } catch (e) {
      if (call.current()) fail(e)
    } finally {
      if (call.current()) startedAt.value = null
    }
  }

  /** A page size chosen while a run is on its way: that run's rows are re-asked at the new size once they arrive. */
  let resizeAfterRun = false

  /** Asks for one page of `target` (and the statistics, when given) and shows it in place of the rows shown. */
  async function show(target: Pick<SentRequest, 'connectionId' | 'request'>, pageOffset: number, pageSize: number, statisticsRequest: QueryRequest | null, fresh = false): Promise<void> {
    const id = crypto.randomUUID()
    const built = atPage(target.request, pageOffset, pageSize)
    await asking(async (call) => {
      const [resultsReply, statisticsAnswer] = await Promise.all([
        send(call, target.connectionId, built, { fresh }, id),
        statisticsRequest ? send(call, target.connectionId, statisticsRequest, { fresh, keepOutOfHistory: true }) : Promise.resolve(null),
      ])
      if (!call.current()) return
      performance.mark(MARKS.reply)
      const { page: body, statistics: alongside } = rowsOf(built.responseType, resultsReply.body)
      answer.value = null
      items.value = body.items
      results.value = body
      lastReply.value = resultsReply
      lastPageFull.value = body.items.length >= pageSize
      shownOffset.value = pageOffset
      shownCount.value = pageSize
      // Each page shown this way (a Run, Next page, a new page size) is a run of its own, which Load more continues.
      shown.value = { connectionId: target.connectionId, request: built, runId: id }
      // The URL box follows the page shown only while it shows this request; an edited chain starts at its own first page.
      if (!edited.value) editor.offset = pageOffset
      if (statisticsAnswer) {
        statistics.value = statisticsAnswer.body as StatisticsResponse
        statisticsReply.value = statisticsAnswer
      } else if (alongside) {
        statistics.value = alongside
        statisticsReply.value = resultsReply
      }
      phase.value = 'done'
      if (resizeAfterRun) {
        resizeAfterRun = false
        if (Number(editor.count) !== pageSize) void showPage(pageStart(pageOffset, Number(editor.count)))
      }
    })
  }

  /** Another page of the rows shown, in pages of the chosen size; before any rows, the chain as it stands. */
  function showPage(pageOffset: number): Promise<void> {
    const from = shown.value
    if (!from) return run(pageOffset, false)
    performance.mark(MARKS.run)
    return show(from, pageOffset, Number(editor.count), null)
  }

  /**
   * A new page size applies at once: the rows shown are asked again at that
   * size, from the page that holds the first of them. After a failed run the
   * failure stays on screen instead (its rows are marked as older).
   */
  function setPageSize(size: number): void {
    if (!Number.isFinite(size) || size === Number(editor.count)) return
    editor.count = size
    if (!shown.value || phase.value === 'error' || phase.value === 'idle') return
    if (phase.value === 'running') {
      resizeAfterRun = true
      return
    }
    void showPage(pageStart(shownOffset.value, size))
  }

  /**
   * Rows Load more has received and the grid does not show yet, to append to
   * `onto` (the rows shown when they came). Each page shown at once re-ran
   * the columns, the virtual list and the pager over all rows loaded, and
   * most of those renders were never seen: now they go in at most once a frame.
   */
  let unshown: { onto: ResultItem[]; rows: ResultItem[]; page: ResultsResponse; reply: QueryReply; full: boolean; current: () => boolean } | null = null

  function showLoaded(): void {
    const pending = unshown
    unshown = null
    // Rows shown since (a new run) are not the ones these continue.
    if (!pending || items.value !== pending.onto) return
    items.value = pending.onto.concat(pending.rows)
    results.value = pending.page
    lastReply.value = pending.reply
    lastPageFull.value = pending.full
    if (progress.value) progress.value = { loaded: items.value.length, target: progress.value.target }
  }

  function keepLoaded(rows: ResultItem[], page: ResultsResponse, reply: QueryReply, full: boolean, current: () => boolean): void {
    if (unshown?.current === current) {
      unshown.rows.push(...rows)
      Object.assign(unshown, { page, reply, full })
      return
    }
    unshown = { onto: items.value, rows: [...rows], page, reply, full, current }
    nextFrame(() => {
      if (unshown?.current()) showLoaded()
    })
  }

  /**
   * Appends the next rows to the grid, 100 per request (the most the service
   * gives at once), a few requests on the way at once and their rows applied
   * in order, until `target` rows are shown, the results end or the user
   * cancels; rows already loaded stay either way. The rows come from the
   * request that produced the rows shown, not from a chain edited since.
   */
  async function loadMore(target: number): Promise<void> {
    const from = shown.value
    if (!results.value || !from || running.value) return
    const plan = loadMorePlan(shownOffset.value, shownEnd.value, target, total.value)
    if (plan.length === 0) return
    const call = runs.start()
    const current = call.current
    phase.value = 'loading-more'
    failure.value = null
    const goal = Math.min(target, MAX_LOADED_ROWS, (total.value ?? Number.POSITIVE_INFINITY) - shownOffset.value)
    progress.value = { loaded: items.value.length, target: goal }
    startedAt.value = performance.now()
    const ask = async (step: { offset: number; count: number }) =>
      ({ step, reply: await send(call, from.connectionId, atPage(from.request, step.offset, step.count), { continues: from.runId }) })
    try {
      for await (const { step, reply } of inOrder(plan, ask, LOAD_IN_FLIGHT)) {
        if (!current()) return
        const { page: body } = rowsOf(from.request.responseType, reply.body)
        keepLoaded(body.items, body, reply, body.items.length >= step.count, current)
        if (body.items.length < step.count) break
      }
      if (current()) {
        showLoaded()
        phase.value = 'done'
      }
    } catch (e) {
      if (current()) {
        showLoaded()
        fail(e)
      }
    } finally {
      // Pages asked past the end of the rows, or after one that failed: nobody waits for them now.
      call.stop()
      if (current()) {
        progress.value = null
        startedAt.value = null
      }
    }
  }

  /** Stops what runs; the rows already shown stay, and so do rows loaded that were waiting for the next frame. */
  async function cancel(): Promise<void> {
    if (!running.value) return
    showLoaded()
    void runs.cancel()
    phase.value = 'cancelled'
    progress.value = null
    startedAt.value = null
  }

  /** A new connection or API: answers to the old one would mislead. */
  function reset(): void {
    void runs.cancel()
    unshown = null
    items.value = []
    results.value = null
    lastReply.value = null
    statistics.value = null
    statisticsReply.value = null
    answer.value = null
    failure.value = null
    editor.problems = []
    progress.value = null
    phase.value = 'idle'
    editor.offset = 0
    shownOffset.value = 0
    shown.value = null
    resizeAfterRun = false
  }

  // Pages continue the rows shown: Next starts after the last row loaded, Previous ends before the first.
  const nextPage = () => showPage(shownEnd.value)
  const previousPage = () => showPage(previousPageOffset(shownOffset.value, Number(editor.count)))
  const goToPage = (n: number) => showPage(offsetOfPage(n, Number(editor.count)))

  return {
    items, answer, shownOffset, shownCount, shownEnd, shown, edited, results, lastReply, statistics, statisticsReply, total,
    phase, running, failure, error, progress, startedAt,
    page, pageCount, pager, hasPrevious, hasNext, canLoadMore,
    run, loadMore, cancel, reset, nextPage, previousPage, goToPage, setPageSize,
  }
})
