import { defineStore } from 'pinia'
import { computed, nextTick, ref, shallowRef, toRaw, watch } from 'vue'
import type { ApiDescription } from '../../shared/api-description'
import {
  conformedToDescription,
  editorSteps,
  moveStep as moved,
  problemsForEditor,
  sentSteps,
  withFacetSelection,
  withoutEmptyOptional,
  type EditorStep,
} from '../../shared/chain/editor-chain'
import type { QueryReply } from '../../shared/ipc/contract'
import type { FacetSelection } from '../../shared/query/facets'
import type { QueryOptions, QueryRequest, ResponseType, Step } from '../../shared/query/model'
import { readPastedUrl } from '../../shared/query/pasted-url'
import { buildUrl } from '../../shared/query/url'
import { validateRequest, type Problem } from '../../shared/query/validate'
import { optionApplies } from '../../shared/query/response-types'
import type { CountResponse, OptionsResponse, ResultItem, ResultObject, ResultsResponse, StatisticsResponse } from '../../shared/responses'
import {
  LOAD_PAGE_SIZE,
  MAX_LOADED_ROWS,
  hasMoreRows,
  loadMorePlan,
  offsetOfPage,
  pageCount as pagesFor,
  pageNumber,
  pageStart,
  pagerView,
  previousPageOffset,
} from '../../shared/results/paging'
import { call, ExplorerClientError } from '../api/explorer-client'
import { useConnectionsStore } from './connections'
import { failureOf, validationFailure, type QueryFailure } from './query-errors'
import { isRowType, rowsOf } from './response-rows'

export const PAGE_SIZES = [10, 25, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 10

/**
 * idle: nothing run yet; running: a page (and the statistics) on the way;
 * loading-more: pages being appended; done / error / cancelled: how the last
 * run ended.
 */
export type QueryPhase = 'idle' | 'running' | 'loading-more' | 'done' | 'error' | 'cancelled'

/** Performance marks read by `npm run bench` (and visible in DevTools): press of Run, reply in, rows painted. */
export const MARKS = { run: 'qe:run', reply: 'qe:reply', painted: 'qe:painted' } as const

/** The answer of a response type that is not a page of rows, with what it was asked for. */
export type SingleAnswer =
  | { type: 'count'; body: CountResponse }
  | { type: 'statistics'; body: StatisticsResponse }
  | { type: 'resultitem'; body: ResultObject; rank: number; column: number }
  | { type: 'options'; body: OptionsResponse; facet: string; multiselect: boolean }

let nextStepId = 0
const newId = () => `step-${++nextStepId}`

/** A request that produced rows, and the connection it went to: paging continues it, whatever was edited since. */
interface SentRequest {
  connectionId: string
  request: QueryRequest
}

/** The same request at another page: only `count` and `offset` change. */
function atPage(base: QueryRequest, pageOffset: number, pageSize: number): QueryRequest {
  const { offset: _offset, ...options } = base.options
  return { ...structuredClone(base), options: { ...structuredClone(options), count: pageSize, ...(pageOffset > 0 ? { offset: pageOffset } : {}) } }
}

/** What identifies a request apart from its page: two requests with the same key page through the same rows. */
function pagingKey(connectionId: string | null, request: QueryRequest): string {
  const { offset: _offset, count: _count, ...options } = request.options
  return JSON.stringify([connectionId, { ...request, options }])
}

/** The chain being edited, its options, and the answers to it. */
export const useQueryStore = defineStore('query', () => {
  const connections = useConnectionsStore()

  // The chain and its options: what the next request will be.
  const chain = ref<EditorStep[]>([{ id: newId(), enabled: true, step: { endpoint: '', parameters: {} } }])
  const count = ref<number>(DEFAULT_PAGE_SIZE)
  const level = ref<number | null>(null)
  const homogeneousArrays = ref(false)
  const cutoff = ref<number | null>(null)
  const format = ref<string>('json')
  /** A version segment read from a pasted URL; otherwise the connection's own. */
  const version = ref<string | undefined>(undefined)
  /** What the next run asks for (the "Response type" picker); the rows types show in the grid. */
  const responseType = ref<ResponseType>('results')
  /** options/<facet>: the facet options endpoint asked, and whether as for a multiple selection. */
  const facet = ref('')
  const multiselect = ref(false)
  /** resultitem: the 1-based rank and tuple column of the object asked. */
  const rank = ref(1)
  const column = ref(1)
  /** Offset the next request (and the URL box) uses: the page shown, back to 0 when the chain changes. */
  const offset = ref(0)

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
  const problems = ref<Problem[]>([])
  const progress = ref<{ loaded: number; target: number } | null>(null)
  const startedAt = ref<number | null>(null)

  /** Ids of requests in flight, so Cancel can stop them in the main process. */
  const inFlight = new Set<string>()
  /** Bumped by every run and cancel: an answer to an older generation is dropped. */
  let generation = 0

  const steps = computed<Step[]>(() => withoutEmptyOptional(sentSteps(chain.value), connections.description))
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

  /** Every option the form sets, then only those the response type takes: the service refuses the others. */
  function options(responseType: ResponseType, pageOffset: number, pageSize: number, withFormat: boolean): QueryOptions {
    const all: QueryOptions = {}
    if (connections.config && connections.config !== 'default') all.config = connections.config
    all.count = Number(pageSize)
    if (pageOffset > 0) all.offset = pageOffset
    if (withFormat && format.value !== 'json') all.format = format.value
    if (level.value !== null) all.level = level.value
    if (homogeneousArrays.value) all.homogeneousArrays = true
    if (cutoff.value !== null) all.cutoff = cutoff.value
    all.rank = Number(rank.value) || 1
    all.column = Number(column.value) || 1
    const out: QueryOptions = {}
    for (const [name, value] of Object.entries(all) as [keyof QueryOptions, never][]) {
      if (optionApplies(name, responseType)) out[name] = value
    }
    return out
  }

  /** The request for the chain as it stands; the grid always asks for JSON, the URL box shows the chosen format. */
  function request(responseType: ResponseType, pageOffset = offset.value, pageSize = count.value, withFormat = false): QueryRequest {
    const connection = connections.selected
    const chosenVersion = version.value ?? connection?.version
    const built: QueryRequest = {
      workspace: connection?.workspace ?? '',
      api: connections.api,
      steps: steps.value.map((step) => structuredClone(toRaw(step))),
      responseType,
      options: options(responseType, pageOffset, pageSize, withFormat),
    }
    if (chosenVersion) built.version = chosenVersion
    if (responseType === 'options') {
      // The chain as it stands, the facet's own filter included: the answer then names the options selected
      // (as the client libraries ask a facet's options), and Multiselect counts the others beside them.
      // Every option is listed: the page size is for rows.
      built.facet = facet.value
      delete built.options.count
      delete built.options.offset
      if (multiselect.value) built.options.multiselect = true
      else delete built.options.multiselect
    }
    return built
  }

  /** The request URL for the chain (never a token: buildUrl writes none); empty when it cannot be written yet. */
  const requestUrl = computed(() => {
    const connection = connections.selected
    if (!connection) return ''
    try {
      return buildUrl(connection.queryUrl, request(responseType.value, offset.value, count.value, true))
    } catch {
      return ''
    }
  })

  /** The chain, its options or the connection changed since the rows shown were asked for: Run would give other rows. */
  const edited = computed(() => {
    const from = shown.value
    return from !== null && pagingKey(from.connectionId, from.request) !== pagingKey(connections.selectedId, request(responseType.value, 0))
  })

  function validate(built: QueryRequest): Problem[] {
    return problemsForEditor(validateRequest(built, { description: connections.description }), chain.value)
  }

  /** A companion request (the statistics beside a page) is not one the user ran: History leaves it out. */
  async function send(connectionId: string, built: QueryRequest, id: string, fresh = false, companion = false): Promise<QueryReply> {
    inFlight.add(id)
    try {
      return await call('query:run', { connectionId, requestId: id, request: built, ...(fresh ? { fresh } : {}), ...(companion ? { companion } : {}) })
    } finally {
      inFlight.delete(id)
    }
  }

  function fail(e: unknown): void {
    phase.value = 'error'
    const ipc = e instanceof ExplorerClientError ? e.error : null
    failure.value = ipc ? failureOf(ipc) : failureOf({ code: 'internal', message: 'Something unexpected went wrong in the window; run again.' })
    problems.value = ipc?.problems ? problemsForEditor(ipc.problems, chain.value) : []
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
    problems.value = found
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
    const type = responseType.value
    if (!isRowType(type)) return runSingle(type, fresh)
    const built = request(type, pageOffset)
    if (!ready(built)) return
    const target = { connectionId: connections.selectedId!, request: built }
    await show(target, pageOffset, Number(count.value), withStatistics && type !== 'results,count' ? request('statistics') : null, fresh)
  }

  /**
   * One request of a type that is not rows: its answer is shown in place of
   * the rows, and paging stops. The statistics are asked beside it, as for
   * rows, so the side panel speaks of the same chain.
   */
  async function runSingle(type: ResponseType, fresh: boolean): Promise<void> {
    const built = request(type)
    if (!ready(built)) return
    stopInFlight()
    const current = ++generation
    phase.value = 'running'
    failure.value = null
    progress.value = null
    startedAt.value = performance.now()
    try {
      const id = crypto.randomUUID()
      const [reply, statisticsAnswer] = await Promise.all([
        send(connections.selectedId!, built, id, fresh),
        type === 'statistics' ? Promise.resolve(null) : send(connections.selectedId!, request('statistics'), `${id}:statistics`, fresh, true),
      ])
      if (current !== generation) return
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
      offset.value = 0
      phase.value = 'done'
    } catch (e) {
      if (current === generation) fail(e)
    } finally {
      if (current === generation) startedAt.value = null
    }
  }

  /** A page size chosen while a run is on its way: that run's rows are re-asked at the new size once they arrive. */
  let resizeAfterRun = false

  /** Asks for one page of `target` (and the statistics, when given) and shows it in place of the rows shown. */
  async function show(target: SentRequest, pageOffset: number, pageSize: number, statisticsRequest: QueryRequest | null, fresh = false): Promise<void> {
    stopInFlight()
    const current = ++generation
    const id = crypto.randomUUID()
    const built = atPage(target.request, pageOffset, pageSize)
    phase.value = 'running'
    failure.value = null
    progress.value = null
    startedAt.value = performance.now()
    try {
      const [resultsReply, statisticsAnswer] = await Promise.all([
        send(target.connectionId, built, id, fresh),
        statisticsRequest ? send(target.connectionId, statisticsRequest, `${id}:statistics`, fresh, true) : Promise.resolve(null),
      ])
      if (current !== generation) return
      performance.mark(MARKS.reply)
      const { page: body, statistics: alongside } = rowsOf(built.responseType, resultsReply.body)
      answer.value = null
      items.value = body.items
      results.value = body
      lastReply.value = resultsReply
      lastPageFull.value = body.items.length >= pageSize
      shownOffset.value = pageOffset
      shownCount.value = pageSize
      shown.value = { connectionId: target.connectionId, request: built }
      // The URL box follows the page shown only while it shows this request; an edited chain starts at its own first page.
      if (!edited.value) offset.value = pageOffset
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
        if (Number(count.value) !== pageSize) void showPage(pageStart(pageOffset, Number(count.value)))
      }
    } catch (e) {
      if (current === generation) fail(e)
    } finally {
      if (current === generation) startedAt.value = null
    }
  }

  /** Another page of the rows shown, in pages of the chosen size; before any rows, the chain as it stands. */
  function showPage(pageOffset: number): Promise<void> {
    const from = shown.value
    if (!from) return run(pageOffset, false)
    performance.mark(MARKS.run)
    return show(from, pageOffset, Number(count.value), null)
  }

  /**
   * A new page size applies at once: the rows shown are asked again at that
   * size, from the page that holds the first of them. After a failed run the
   * failure stays on screen instead (its rows are marked as older).
   */
  function setPageSize(size: number): void {
    if (!Number.isFinite(size) || size === Number(count.value)) return
    count.value = size
    if (!shown.value || phase.value === 'error' || phase.value === 'idle') return
    if (phase.value === 'running') {
      resizeAfterRun = true
      return
    }
    void showPage(pageStart(shownOffset.value, size))
  }

  /**
   * Appends the next rows to the grid, 100 per request (the most the service
   * gives at once), in sequence, until `target` rows are shown, the results
   * end or the user cancels; rows already loaded stay either way. The rows
   * come from the request that produced the rows shown, not from a chain
   * edited since.
   */
  async function loadMore(target: number): Promise<void> {
    const from = shown.value
    if (!results.value || !from || running.value) return
    const plan = loadMorePlan(shownOffset.value, shownEnd.value, target, total.value)
    if (plan.length === 0) return
    const current = ++generation
    phase.value = 'loading-more'
    failure.value = null
    const goal = Math.min(target, MAX_LOADED_ROWS, (total.value ?? Number.POSITIVE_INFINITY) - shownOffset.value)
    progress.value = { loaded: items.value.length, target: goal }
    startedAt.value = performance.now()
    try {
      for (const step of plan) {
        const reply = await send(from.connectionId, atPage(from.request, step.offset, step.count), crypto.randomUUID())
        if (current !== generation) return
        const { page: body } = rowsOf(from.request.responseType, reply.body)
        items.value = items.value.concat(body.items)
        results.value = body
        lastReply.value = reply
        lastPageFull.value = body.items.length >= step.count
        progress.value = { loaded: items.value.length, target: goal }
        if (body.items.length < step.count) break
      }
      if (current === generation) phase.value = 'done'
    } catch (e) {
      if (current === generation) fail(e)
    } finally {
      if (current === generation) {
        progress.value = null
        startedAt.value = null
      }
    }
  }

  function stopInFlight(): void {
    const ids = [...inFlight]
    inFlight.clear()
    for (const requestId of ids) void call('query:cancel', { requestId }).catch(() => undefined)
  }

  /** Stops what runs; the rows already shown stay. */
  async function cancel(): Promise<void> {
    if (!running.value) return
    generation++
    stopInFlight()
    phase.value = 'cancelled'
    progress.value = null
    startedAt.value = null
  }

  /** A new connection or API: answers to the old one would mislead. */
  function reset(): void {
    generation++
    stopInFlight()
    items.value = []
    results.value = null
    lastReply.value = null
    statistics.value = null
    statisticsReply.value = null
    answer.value = null
    failure.value = null
    problems.value = []
    progress.value = null
    phase.value = 'idle'
    offset.value = 0
    shownOffset.value = 0
    shown.value = null
    resizeAfterRun = false
  }

  // Pages continue the rows shown: Next starts after the last row loaded, Previous ends before the first.
  const nextPage = () => showPage(shownEnd.value)
  const previousPage = () => showPage(previousPageOffset(shownOffset.value, Number(count.value)))
  const goToPage = (n: number) => showPage(offsetOfPage(n, Number(count.value)))

  // Editing the chain.
  function setChain(next: EditorStep[]): void {
    chain.value = next
  }
  function addEndpointStep(): void {
    chain.value = [...chain.value, { id: newId(), enabled: true, step: { endpoint: '', parameters: {} } }]
  }
  function addContextStep(): void {
    chain.value = [...chain.value, { id: newId(), enabled: true, step: { context: { '': '' } } }]
  }
  function updateStep(index: number, step: Step): void {
    chain.value = chain.value.map((entry, i) => (i === index ? { ...entry, step } : entry))
  }
  /** Gives steps typed before the API description arrived the parameters it describes. */
  function conformToDescription(description: ApiDescription | null): void {
    chain.value = conformedToDescription(chain.value, description)
  }
  function removeStep(index: number): void {
    chain.value = chain.value.filter((_, i) => i !== index)
  }
  function moveStep(from: number, to: number): void {
    chain.value = moved(chain.value, from, to)
  }
  function setStepEnabled(index: number, enabled: boolean): void {
    chain.value = chain.value.map((entry, i) => (i === index ? { ...entry, enabled } : entry))
  }
  function setFacetSelection(facet: string, selected: readonly FacetSelection[]): void {
    chain.value = withFacetSelection(chain.value, facet, selected, newId)
  }

  /**
   * Replaces the chain and options with a pasted request URL, made against
   * this connection's query URL or any other (a colleague's, the demo on
   * another port). Only the chain and options are taken: Run sends them to
   * the current connection's query URL with its account, never to the pasted
   * URL's host. Nothing changes unless the whole URL reads; the reason comes
   * back otherwise, and a note when the URL came from elsewhere.
   */
  async function replaceFromUrl(text: string): Promise<{ ok: true; note: string | null } | { ok: false; message: string }> {
    const connection = connections.selected
    if (!connection) return { ok: false, message: 'Choose a connection first: the URL runs on it.' }
    const parsed = readPastedUrl(text, connection)
    if (!parsed.ok) {
      const { segment, message } = parsed.error
      return { ok: false, message: segment && !message.includes(segment) ? `At "${segment}": ${message}.` : `${capitalise(message)}.` }
    }
    const { request: pasted, note } = parsed.value
    await loadRequest(pasted)
    return { ok: true, note }
  }

  /** True while loadRequest puts a request in place: a new configuration it sets is not a reason to run. */
  const loading = ref(false)

  /**
   * Puts a request model into the editor (its API, chain, response type,
   * options and version) on the current connection, and runs nothing: a
   * pasted URL, a run from History, a saved query, the draft of the last session.
   */
  async function loadRequest(loaded: QueryRequest): Promise<void> {
    loading.value = true
    try {
      if (loaded.api && loaded.api !== connections.api) {
        connections.api = loaded.api
        await connections.describe()
      }
      const { options: o } = loaded
      chain.value = editorSteps(loaded.steps, newId)
      version.value = loaded.version !== connections.selected?.version ? loaded.version : undefined
      count.value = o.count ?? DEFAULT_PAGE_SIZE
      level.value = o.level ?? null
      homogeneousArrays.value = o.homogeneousArrays ?? false
      cutoff.value = o.cutoff ?? null
      format.value = o.format ?? 'json'
      responseType.value = loaded.responseType
      facet.value = loaded.facet ?? facet.value
      rank.value = o.rank ?? 1
      column.value = o.column ?? 1
      multiselect.value = o.multiselect ?? false
      connections.config = o.config ?? 'default'
      // The watcher below sees the new chain and would start from page 1: it takes this offset instead.
      pastedOffset = o.offset ?? 0
      offset.value = pastedOffset
      problems.value = []
      // The watchers that react to these changes run before this resolves, while `loading` still says why.
      await nextTick()
    } finally {
      loading.value = false
    }
  }

  // A changed chain or option starts again from the first page (a pasted URL from its own offset).
  let pastedOffset: number | null = null
  watch([chain, count, level, homogeneousArrays, cutoff, responseType], () => {
    offset.value = pastedOffset ?? 0
    pastedOffset = null
  }, { deep: true })

  return {
    chain, steps, count, level, homogeneousArrays, cutoff, format, version, offset, responseType, facet, multiselect, rank, column,
    items, answer, shownOffset, shownCount, shownEnd, shown, edited, results, lastReply, statistics, statisticsReply, total,
    phase, running, failure, error, problems, progress, startedAt,
    page, pageCount, pager, hasPrevious, hasNext, canLoadMore,
    request, requestUrl, run, loadMore, cancel, reset, nextPage, previousPage, goToPage, setPageSize,
    setChain, addEndpointStep, addContextStep, updateStep, conformToDescription, removeStep, moveStep, setStepEnabled, setFacetSelection,
    replaceFromUrl, loadRequest, loading,
  }
})

function singleAnswer(built: QueryRequest, body: unknown): SingleAnswer {
  switch (built.responseType) {
    case 'count':
      return { type: 'count', body: body as CountResponse }
    case 'resultitem':
      return { type: 'resultitem', body: body as ResultObject, rank: built.options.rank ?? 1, column: built.options.column ?? 1 }
    case 'options':
      return { type: 'options', body: body as OptionsResponse, facet: built.facet ?? '', multiselect: built.options.multiselect ?? false }
    default:
      return { type: 'statistics', body: body as StatisticsResponse }
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export { LOAD_PAGE_SIZE, MAX_LOADED_ROWS }
