import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { HistoryStore } from '../../src/main/history/history-store'
import { storedHistory } from '../fixtures/history-entries'
import type { ConnectionView, HistoryEntry } from '../../src/shared/ipc/contract'
import { openDemoBench, type DemoBench } from './demo-bench'
import { call, failure, json, keychainMissing, RESULTS_PAGE, search, startServer, type TestServer } from './support'

/**
 * Load more's pages belong to the run whose rows they continue: History keeps
 * one entry for the run, which counts the pages and rows it covers, over the
 * real handler table and the demo service, and across a restart.
 */

const missing = await keychainMissing()

describe.skipIf(missing !== null)('History and Load more', () => {
  let bench: DemoBench
  let core: AppCore
  /** Answers the first page at once and holds every later one, so a page can be cancelled while on its way. */
  let holding: TestServer
  let holdingConnection: ConnectionView
  /** Resolves when the holding server has a page it holds. */
  let pageHeld: Promise<void>

  const history = () => call<HistoryEntry[]>(core, 'history:list', {})
  /** What the window sends for a page of a run: the run's request at another offset. */
  const page = (text: string, offset: number, count = 100) => search(text, { count, ...(offset > 0 ? { offset } : {}) })

  beforeAll(async () => {
    bench = await openDemoBench('history-load-more')
    core = bench.core
    let held: () => void
    pageHeld = new Promise((resolve) => (held = resolve))
    holding = await startServer((req, res) => {
      if (/[?&]offset=/.test(req.url ?? '')) held()
      else json(res, 200, RESULTS_PAGE)
    })
    holdingConnection = await call<ConnectionView>(core, 'connections:save', {
      name: 'Holding',
      authUrl: '',
      queryUrl: `${holding.origin}/query`,
      workspace: 'world',
      api: 'places',
      clientId: '',
    })
  })
  afterAll(async () => {
    await holding?.close()
    await bench?.close()
  })

  it('records a run and the pages Load more adds to it as one entry, with the pages and rows it covers', async () => {
    await call(core, 'history:clear', {})
    const first = await call<{ url: string }>(core, 'query:run', { connectionId: 'demo', requestId: 'run-san', request: page('san', 0) })
    // Three on the way at once, as the window asks them.
    await Promise.all(
      [100, 200, 300].map((offset) => call(core, 'query:run', { connectionId: 'demo', requestId: `more-${offset}`, request: page('san', offset), continues: 'run-san' })),
    )

    const entries = await history()
    expect(entries).toHaveLength(1)
    const [run] = entries as [HistoryEntry]
    expect(run).toMatchObject({ connectionId: 'demo', url: first.url, status: 200, error: null, pages: 4, itemCount: 400 })
    expect(run.request).toEqual(page('san', 0))

    // The next page of it, later on: the same entry again.
    await call(core, 'query:run', { connectionId: 'demo', requestId: 'more-400', request: page('san', 400), continues: 'run-san' })
    expect(await history()).toMatchObject([{ id: run.id, pages: 5, itemCount: 500 }])

    // A new run is an entry of its own, newest first; the older run's entry stays where it was.
    await call(core, 'query:run', { connectionId: 'demo', requestId: 'run-paris', request: page('paris', 0, 10) })
    await call(core, 'query:run', { connectionId: 'demo', requestId: 'more-paris', request: page('paris', 10, 10), continues: 'run-paris' })
    const after = await history()
    const searched = (entry: HistoryEntry) => (entry.request.steps[0] as { parameters: Record<string, string> }).parameters.query
    expect(after.map((entry) => [searched(entry), entry.pages])).toEqual([
      ['paris', 2],
      ['san', 5],
    ])

    // A restart reads the same entries back from the database, which keeps a row an entry, the newest `keep`.
    expect(await storedHistory(bench.dataDir)).toEqual(after)
    const keepingTwo = new HistoryStore(bench.dataDir, { keep: 2 })
    await keepingTwo.add({ ...after[1]!, id: 'another' })
    await keepingTwo.close()
    expect((await storedHistory(bench.dataDir)).map((entry) => entry.id)).toEqual(['another', after[0]!.id])
  })

  it('leaves out a page cancelled on its way, and a page that fails marks the run failed', async () => {
    await call(core, 'history:clear', {})
    await call(core, 'query:run', { connectionId: holdingConnection.id, requestId: 'run-held', request: page('san', 0, 10) })
    const held = core.dispatch('query:run', { connectionId: holdingConnection.id, requestId: 'more-held', request: page('san', 10, 10), continues: 'run-held' })
    // A page refused at once (a handler that does not know `continues`) would never be held: fail then, not at the timeout.
    await Promise.race([pageHeld, held.then((reply) => Promise.reject(new Error(`the page was answered at once: ${JSON.stringify(reply)}`)))])
    expect(await call(core, 'query:cancel', { requestId: 'more-held' })).toEqual({ cancelled: true })
    expect(await held).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    expect(await history()).toMatchObject([{ pages: 1, itemCount: 1, error: null, status: 200 }])

    await call(core, 'query:run', { connectionId: 'demo', requestId: 'run-oslo', request: page('oslo', 0, 10) })
    const refused = await failure(core, 'query:run', { connectionId: 'demo', requestId: 'more-oslo', request: page('oslo', 10, 500), continues: 'run-oslo' })
    const [oslo] = (await history()) as [HistoryEntry]
    expect(oslo).toMatchObject({ pages: 1, error: { code: refused.code, message: refused.message } })
    expect(oslo.request).toEqual(page('oslo', 0, 10))
  })

  it("gives each run's entry with its reply, as written: a Load more page's the run's entry as it now stands, a failure's with its error", async () => {
    await call(core, 'history:clear', {})
    const run = await call<{ historyEntry?: HistoryEntry }>(core, 'query:run', { connectionId: 'demo', requestId: 'run-lima', request: page('lima', 0, 10) })
    expect(run.historyEntry).toEqual((await history())[0])
    const more = await call<{ historyEntry?: HistoryEntry }>(core, 'query:run', { connectionId: 'demo', requestId: 'more-lima', request: page('lima', 10, 10), continues: 'run-lima' })
    expect(more.historyEntry).toMatchObject({ id: run.historyEntry!.id, pages: 2 })
    expect(more.historyEntry).toEqual((await history())[0])

    const refused = (await core.dispatch('query:run', { connectionId: 'demo', requestId: 'run-bad', request: page('lima', 0, 500) })) as { ok: false; error: { code: string; historyEntry?: HistoryEntry } }
    expect(refused.error.code).toBe('validation')
    expect(refused.error.historyEntry).toMatchObject({ status: null, error: { code: 'validation' } })
    expect(refused.error.historyEntry).toEqual((await history())[0])

    // Left out of History: nothing written, nothing carried.
    const aside = await call<{ historyEntry?: HistoryEntry }>(core, 'query:run', { connectionId: 'demo', requestId: 'aside', request: page('lima', 0, 10), keepOutOfHistory: true })
    expect(aside).not.toHaveProperty('historyEntry')
    expect(await history()).toHaveLength(2)
  })

  it('records a page of a run it does not know (an older window, a cleared history) as a run of its own', async () => {
    await call(core, 'history:clear', {})
    await call(core, 'query:run', { connectionId: 'demo', requestId: 'more-lost', request: page('rome', 10, 10), continues: 'no-such-run' })
    await call(core, 'query:run', { connectionId: 'demo', requestId: 'more-lost-2', request: page('rome', 20, 10), continues: 'no-such-run' })
    expect(await history()).toMatchObject([{ pages: 2, itemCount: 20, request: page('rome', 10, 10) }])
  })
})
