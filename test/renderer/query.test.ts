import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { LOAD_IN_FLIGHT } from '../../src/shared/results/paging'
import { answerAsDemo, fakeBridge, installBridge, settle, type HeldCall } from './fake-bridge'

const fake = fakeBridge()
installBridge(fake)
const { useChainStore } = await import('../../src/renderer/stores/chain')
const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useQueryStore } = await import('../../src/renderer/stores/query')

/**
 * The query store (src/renderer/stores/query.ts): a run's checks, the page
 * shown and the pager, a type that is not rows, a new page size; and Load
 * more, which asks a few pages at once and applies them in order: the rows
 * keep the service's order whatever order the answers come in, Cancel keeps
 * the rows loaded, and a failure shows after the rows before it.
 */

const TOTAL = 1_000

beforeEach(() => {
  answerAsDemo(fake)
  setActivePinia(createPinia())
})

const optionsOf = (call: HeldCall) => (call.request.request as QueryRequest).options as { offset?: number; count?: number }

/** The page a held query:run asks for, rows ranked by their place; statistics say TOTAL. */
function answer(call: HeldCall): void {
  const request = call.request.request as QueryRequest
  const offset = optionsOf(call).offset ?? 0
  const count = optionsOf(call).count ?? 10
  const body =
    request.responseType === 'statistics'
      ? { total: TOTAL }
      : { offset, count, type: [], items: Array.from({ length: Math.max(0, Math.min(count, TOTAL - offset)) }, (_, i) => ({ rank: offset + i + 1, probability: 1, tuple: [`row ${offset + i + 1}`] })) }
  call.answer({ url: 'http://127.0.0.1:4123/query', status: 200, contentType: 'application/json', bytes: 1, body, timings: { connectMs: null, firstByteMs: 1, totalMs: 1 }, cached: false })
}

/** Takes the held calls out of the queue (the fake keeps answered ones too). */
function takeHeld(): HeldCall[] {
  const calls = [...fake.held]
  fake.held.length = 0
  return calls
}

/** A first page of 100 rows on screen, from a run of the Demo's search. */
async function rowsShown() {
  await useConnectionsStore().load()
  const chain = useChainStore()
  chain.updateStep(0, { endpoint: 'search', parameters: { query: 'san' } })
  chain.count = 100
  const query = useQueryStore()
  fake.hold('query:run')
  const run = query.run()
  await settle()
  for (const call of takeHeld()) answer(call)
  await run
  expect(query.items).toHaveLength(100)
  return query
}

const ranks = (query: ReturnType<typeof useQueryStore>) => query.items.map((item) => item.rank)
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

describe('Load more', () => {
  it('keeps the rows in order when the pages come back out of order, with a few asked at once', async () => {
    const query = await rowsShown()
    const loading = query.loadMore(600)
    await settle()
    expect(query.phase).toBe('loading-more')
    let most = 0
    while (query.phase === 'loading-more') {
      const asked = takeHeld()
      most = Math.max(most, asked.length)
      // The last asked answers first.
      for (const call of asked.reverse()) answer(call)
      await settle()
    }
    await loading
    expect(most).toBe(LOAD_IN_FLIGHT)
    expect(ranks(query)).toEqual(upTo(600))
    expect(query.phase).toBe('done')
    expect(query.progress).toBeNull()
    expect(query.pager).toMatchObject({ kind: 'range', first: 1, last: 600 })
  })

  it('asks for each page once, the rows after the last one loaded, 100 at a time', async () => {
    const query = await rowsShown()
    const loading = query.loadMore(450)
    const offsets: number[] = []
    await settle()
    while (query.phase === 'loading-more') {
      for (const call of takeHeld()) {
        offsets.push(optionsOf(call).offset ?? 0)
        expect(optionsOf(call).count).toBe(offsets.at(-1) === 400 ? 50 : 100)
        answer(call)
      }
      await settle()
    }
    await loading
    expect(offsets.sort((a, b) => a - b)).toEqual([100, 200, 300, 400])
    expect(ranks(query)).toEqual(upTo(450))
  })

  it('keeps the rows loaded when stopped, drops the answers that come after, and stops the pages on the way', async () => {
    const query = await rowsShown()
    const loading = query.loadMore(1_000)
    await settle()
    // The first page in, the next ones still on the way.
    const asked = takeHeld()
    answer(asked[0]!)
    await settle()
    await query.cancel()
    expect(query.phase).toBe('cancelled')
    expect(ranks(query)).toEqual(upTo(200))
    const cancelled = fake.calls.filter((call) => call.channel === 'query:cancel').map((call) => call.request.requestId)
    expect(cancelled).toEqual(expect.arrayContaining(asked.slice(1).map((call) => call.request.requestId)))
    for (const call of [...asked.slice(1), ...takeHeld()]) answer(call)
    await loading
    expect(ranks(query)).toEqual(upTo(200))
    expect(query.phase).toBe('cancelled')
  })

  it('shows a failure after the rows of the pages before it, and stops the pages after it', async () => {
    const query = await rowsShown()
    const loading = query.loadMore(1_000)
    await settle()
    const asked = takeHeld()
    asked[1]!.refuse({ code: 'network', message: 'The service cannot be reached.' })
    answer(asked[2]!)
    answer(asked[0]!)
    await loading
    expect(query.phase).toBe('error')
    expect(query.error).toContain('The service cannot be reached.')
    expect(ranks(query)).toEqual(upTo(200))
    // The page after the failed one was answered but not applied; those asked after it were stopped.
    const cancelled = fake.calls.filter((call) => call.channel === 'query:cancel').map((call) => call.request.requestId)
    const after = takeHeld()
    expect(after).toHaveLength(1)
    expect(cancelled).toEqual(after.map((call) => call.request.requestId))
  })

  it('stops at the end of the rows when there is no total: a short page is the last', async () => {
    const query = await rowsShown()
    query.statistics = null
    const loading = query.loadMore(TOTAL + 500)
    await settle()
    while (query.phase === 'loading-more') {
      for (const call of takeHeld()) answer(call)
      await settle()
    }
    await loading
    expect(ranks(query)).toEqual(upTo(TOTAL))
    expect(query.hasNext).toBe(false)
  })
})

/** Answers every held call until none is left (a page asked and its statistics beside it). */
async function answerAll(): Promise<void> {
  await settle()
  for (const call of takeHeld()) answer(call)
  await settle()
}

describe('query store: a run and its pages', () => {
  it('sends nothing and says why when no connection is chosen', async () => {
    const query = useQueryStore()
    await query.run()
    expect(query.phase).toBe('error')
    expect(query.error).toContain('Choose a connection first.')
    expect(fake.calls.filter((call) => call.channel === 'query:run')).toEqual([])
  })

  it('shows the next page in place of the rows, and Previous goes back, each asked at the page size', async () => {
    const query = await rowsShown()
    expect(query.pager).toEqual({ kind: 'page', page: 1, pageCount: 10 })
    const next = query.nextPage()
    await answerAll()
    await next
    expect(ranks(query)).toEqual(upTo(200).slice(100))
    expect(query.pager).toEqual({ kind: 'page', page: 2, pageCount: 10 })
    expect(query.hasPrevious).toBe(true)
    const back = query.previousPage()
    await answerAll()
    await back
    expect(ranks(query)).toEqual(upTo(100))
    expect(query.hasPrevious).toBe(false)
    // Paging asks no statistics again: the total is known.
    const asked = fake.calls.filter((call) => call.channel === 'query:run').map((call) => (call.request.request as QueryRequest).responseType)
    expect(asked).toEqual(['results', 'statistics', 'results', 'results'])
  })

  it('asks the rows shown again at a new page size, from the page that holds the first of them', async () => {
    const query = await rowsShown()
    const next = query.nextPage()
    await answerAll()
    await next
    query.setPageSize(30)
    await answerAll()
    // Row 101 is on the page of 30 that starts at 90.
    expect(ranks(query)).toEqual(upTo(120).slice(90))
    expect(query.shownCount).toBe(30)
    expect(query.pager).toEqual({ kind: 'page', page: 4, pageCount: 34 })
  })

  it('shows the answer of a type that is not rows in place of the rows, with the statistics beside it left out of History', async () => {
    const query = await rowsShown()
    const chain = useChainStore()
    chain.responseType = 'count'
    fake.hold('query:run')
    const run = query.run()
    await settle()
    const asked = takeHeld()
    expect(asked.map((call) => [(call.request.request as QueryRequest).responseType, call.request.keepOutOfHistory ?? false])).toEqual([
      ['count', false],
      ['statistics', true],
    ])
    const reply = { url: 'http://127.0.0.1:4123/query', status: 200, contentType: 'application/json', bytes: 1, timings: { connectMs: null, firstByteMs: 1, totalMs: 1 }, cached: false }
    asked[0]!.answer({ ...reply, body: { count: 42 } })
    asked[1]!.answer({ ...reply, body: { total: 42 } })
    await run
    expect(query.answer).toEqual({ type: 'count', body: { count: 42 } })
    expect(query.items).toEqual([])
    expect(query.total).toBe(42)
    expect(query.hasNext).toBe(false)
    expect(query.phase).toBe('done')
  })
})

/** What query:run answers a held call: a page with one row named after the chain's query, or statistics. */
function answerRun(call: HeldCall, total: number): void {
  const request = call.request.request as QueryRequest
  const step = request.steps[0] as { parameters: Record<string, string> }
  const body = request.responseType === 'statistics'
    ? { total }
    : { offset: 0, count: 10, type: [], items: [{ rank: 1, probability: 1, tuple: [step.parameters.query ?? ''] }] }
  call.answer({ url: 'http://127.0.0.1:4123/query', status: 200, contentType: 'application/json', bytes: 1, body, timings: { connectMs: null, firstByteMs: 1, totalMs: 1 }, cached: false })
}

const runsOf = (query: string) =>
  fake.held.filter((call) => ((call.request.request as QueryRequest).steps[0] as { parameters: Record<string, string> }).parameters.query === query)

async function editorOn(query: string) {
  await useConnectionsStore().load()
  const chain = useChainStore()
  chain.updateStep(0, { endpoint: 'search', parameters: { query } })
  return chain
}

describe('query store: the latest run wins', () => {
  it('drops the answer of an older run that arrives after the newer one', async () => {
    const chain = await editorOn('madrid')
    const query = useQueryStore()
    fake.hold('query:run')
    const first = query.run()
    chain.updateStep(0, { endpoint: 'search', parameters: { query: 'paris' } })
    const second = query.run()
    await settle()
    // The newer run stopped the older one's requests in the main process.
    expect(fake.calls.filter((call) => call.channel === 'query:cancel')).toHaveLength(2)

    for (const call of runsOf('paris')) answerRun(call, 2)
    await second
    for (const call of runsOf('madrid')) answerRun(call, 1)
    await first

    expect(query.items.map((item) => item.tuple)).toEqual([['paris']])
    expect(query.total).toBe(2)
    expect(query.phase).toBe('done')
    expect(query.shown?.request.steps).toEqual([{ endpoint: 'search', parameters: { query: 'paris' } }])
  })

  it('drops an answer that arrives after Cancel, and keeps the rows shown', async () => {
    await editorOn('madrid')
    const query = useQueryStore()
    fake.hold('query:run')
    const run = query.run()
    await settle()
    expect(query.running).toBe(true)
    await query.cancel()
    for (const call of fake.held) answerRun(call, 1)
    await run
    expect(query.phase).toBe('cancelled')
    expect(query.items).toEqual([])
    expect(query.total).toBeNull()
    expect(query.startedAt).toBeNull()
  })

  it('drops an answer that arrives after a reset (another connection or API)', async () => {
    await editorOn('madrid')
    const query = useQueryStore()
    fake.hold('query:run')
    const run = query.run()
    await settle()
    query.reset()
    for (const call of fake.held) answerRun(call, 1)
    await run
    expect(query.phase).toBe('idle')
    expect(query.results).toBeNull()
  })
})
