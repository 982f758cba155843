import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionView, ExplorerBridge, HistoryEntry, IpcResult } from '../../src/shared/ipc/contract'
import { openDemoBench, type DemoBench } from '../main/demo-bench'
import { call, keychainMissing, search, startServer, type TestServer } from '../main/support'

/**
 * The window's one cancellable query (src/renderer/api/cancellable-query.ts)
 * over the real handler table, the browser host's and the Electron window's
 * both: the demo service answers, and a server that holds every request
 * keeps an older query on its way while a newer one starts.
 */

/** What went through the bridge: each call and what main answered. */
const seen: { channel: string; request: Record<string, unknown>; result: IpcResult<unknown> }[] = []
let core: AppCore | null = null
const bridge: ExplorerBridge = {
  async invoke(channel, request) {
    const result = (await core!.dispatch(channel, request)) as IpcResult<never>
    seen.push({ channel, request: request as Record<string, unknown>, result })
    return result
  },
}
;(globalThis as { window?: unknown }).window = { explorer: bridge }
const { cancellableQuery, QuerySuperseded } = await import('../../src/renderer/api/cancellable-query')

const missing = await keychainMissing()

describe.skipIf(missing !== null)('a cancellable query: the latest call wins', () => {
  let bench: DemoBench
  /** Holds every request it gets; resolves `arrived` with the first. */
  let holding: TestServer
  let holdingConnection: ConnectionView
  let arrived: Promise<void>

  beforeAll(async () => {
    bench = await openDemoBench('cancellable-query')
    core = bench.core
    let reached: () => void
    arrived = new Promise((resolve) => (reached = resolve))
    holding = await startServer(() => reached())
    holdingConnection = await call<ConnectionView>(core, 'connections:save', {
      name: 'Holding', authUrl: '', queryUrl: `${holding.origin}/query`, workspace: 'world', api: 'places', clientId: '',
    })
  })
  afterAll(async () => {
    await holding?.close()
    await bench?.close()
  })

  it('a newer call cancels the older one in the main process, and the older never gives its answer', async () => {
    const line = cancellableQuery()
    const older = line.start().send('query:run', { connectionId: holdingConnection.id, request: search('paris'), keepOutOfHistory: true })
    const olderSettled = older.then(
      () => 'answered',
      (error: unknown) => error,
    )
    await arrived
    const olderId = seen.length // the older query's own call is still on its way: nothing of it is in `seen` yet

    const newer = line.start()
    const reply = await newer.send('query:run', { connectionId: 'demo', request: search('berlin'), keepOutOfHistory: true })

    expect((reply.body as { items: unknown[] }).items.length).toBeGreaterThan(0)
    expect(await olderSettled).toBeInstanceOf(QuerySuperseded)
    // Main stopped the older request (it was on its way to a server that never answers) and said so.
    const cancels = seen.slice(olderId).filter((entry) => entry.channel === 'query:cancel')
    expect(cancels.map((entry) => entry.result)).toEqual([{ ok: true, data: { cancelled: true } }])
    const olderRun = seen.find((entry) => entry.channel === 'query:run' && entry.request.requestId === cancels[0]!.request.requestId)
    expect(olderRun?.result).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    expect(newer.current()).toBe(true)
  })

  it("drops an older call's answer even when main answered it before the newer call started", async () => {
    const line = cancellableQuery()
    const first = line.start()
    const answered = await first.send('query:run', { connectionId: 'demo', request: search('madrid'), keepOutOfHistory: true })
    expect(answered.status).toBe(200)

    // The same call asked again once a newer one started: its answer comes back from main, and is not returned.
    const late = first.send('query:run', { connectionId: 'demo', request: search('madrid'), keepOutOfHistory: true })
    const second = line.start()
    await expect(late).rejects.toBeInstanceOf(QuerySuperseded)
    expect(first.current()).toBe(false)
    expect(second.current()).toBe(true)

    // Cancel supersedes every call, as a new one does.
    const cancelled = second.send('query:run', { connectionId: 'demo', request: search('rome'), keepOutOfHistory: true })
    await line.cancel()
    await expect(cancelled).rejects.toBeInstanceOf(QuerySuperseded)
    // And a superseded call asks nothing more of main.
    const asked = seen.length
    await expect(second.send('query:run', { connectionId: 'demo', request: search('rome'), keepOutOfHistory: true })).rejects.toBeInstanceOf(QuerySuperseded)
    expect(seen.slice(asked)).toEqual([])
  })

  it("hands over the History entry each run's reply carries, a superseded run's too, and failures stay errors", async () => {
    const recorded: HistoryEntry[] = []
    const line = cancellableQuery({ recorded: (entry) => recorded.push(entry) })
    const run = line.start()
    const reply = await run.send('query:run', { connectionId: 'demo', request: search('vienna') })
    expect(reply.historyEntry).toMatchObject({ connectionId: 'demo', status: 200, url: reply.url })

    const refused = run.send('query:run', { connectionId: 'demo', request: search('vienna', { count: 500 }) })
    await expect(refused).rejects.toMatchObject({ error: { code: 'validation' } })
    const late = run.send('query:run', { connectionId: 'demo', request: search('oslo') })
    line.start()
    await expect(late).rejects.toBeInstanceOf(QuerySuperseded)

    const listed = await call<HistoryEntry[]>(core!, 'history:list', {})
    expect(recorded.map((entry) => entry.id).sort()).toEqual(listed.slice(0, 3).map((entry) => entry.id).sort())
    const asked = (entry: HistoryEntry) => (entry.request.steps[0] as { parameters: Record<string, string> }).parameters.query
    expect(recorded.map(asked)).toEqual(['vienna', 'vienna', 'oslo'])
    expect(recorded[1]).toMatchObject({ status: null, error: { code: 'validation' } })
    // Answered or cancelled on its way, whichever came first: the entry says which.
    expect(recorded[2]!.status === 200 || recorded[2]!.error?.code === 'cancelled').toBe(true)
  })
})
