import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HistoryStore } from '../../src/main/history/history-store'
import { queryHandlers } from '../../src/main/ipc/handlers/query-handlers'
import { createLogger } from '../../src/main/logging/logger'
import { startService, type RunningService } from '../../src/service'
import { ExplorerError } from '../../src/shared/ipc/errors'
import { failureOf } from '../fixtures/failure-of'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { openRegistry, saveServiceConnection } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search } from './support'

/**
 * Runs and API descriptions over a real registry: the embedded service (a
 * described API behind a token) and a server without a description; History
 * in a real data folder.
 */

describe('queryHandlers', () => {
  const tempDir = useTempDirs('qe-query-handlers')
  let service: RunningService
  let bare: RankingServer
  const stores: HistoryStore[] = []
  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
    bare = await startRankingServer({ lyon: ['l1', 'l2'], broken: { status: 500, message: 'backend key sk-9f3 refused' } })
  })
  afterAll(async () => {
    for (const store of stores) await store.close()
    await Promise.all([service?.close(), bare?.close()])
  })

  async function open(withHistory = true) {
    const dataDir = tempDir()
    const { registry, runner } = await openRegistry(dataDir)
    const log = createLogger(dataDir)
    const store = withHistory ? new HistoryStore(dataDir) : null
    if (store) stores.push(store)
    const handlers = queryHandlers(registry, runner, store ? { store, log } : undefined)
    const described = await saveServiceConnection(registry, service)
    const plain = await registry.save({ name: 'Plain', authUrl: '', queryUrl: `${bare.server.origin}/query`, workspace: 'world', api: 'places', clientId: '' })
    return { handlers, store, log, described: described.id, plain: plain.id }
  }

  it('describes an API that has a description, with the token it needs; learns why another has none', async () => {
    const { handlers, described, plain } = await open(false)
    const description = await handlers['api:describe']({ connectionId: described, api: 'places' }, {})
    expect(description?.api).toBe('places')
    expect(await handlers['api:learn']({ connectionId: plain, api: 'places' }, {})).toEqual({ description: null, absence: { reason: 'not-found', status: 404 } })
  })

  it('a run carries the History entry it wrote; one kept out of History writes none', async () => {
    const { handlers, store, plain } = await open()
    const reply = await handlers['query:run']({ connectionId: plain, requestId: 'r1', request: search('lyon') }, {})
    expect(reply.status).toBe(200)
    expect(reply.historyEntry).toMatchObject({ connectionId: plain, connectionName: 'Plain', status: 200, itemCount: 2, error: null })
    expect((await store!.list()).map((entry) => entry.id)).toEqual([reply.historyEntry!.id])

    const aside = await handlers['query:run']({ connectionId: plain, requestId: 'r2', request: search('lyon'), keepOutOfHistory: true }, {})
    expect(aside.historyEntry).toBeUndefined()
    expect(await store!.list()).toHaveLength(1)
  })

  it("a failed run's error carries its History entry, the server's secret words scrubbed in it", async () => {
    const { handlers, log, plain } = await open()
    log.redact('sk-9f3')
    const error = await failureOf(handlers['query:run']({ connectionId: plain, requestId: 'r3', request: search('broken') }, {}))
    const ipc = error.toIpc() as ReturnType<ExplorerError['toIpc']> & { historyEntry?: { status: number | null; error: { message: string } | null } }
    expect(ipc.code).toBe('http')
    expect(ipc.historyEntry?.status).toBe(500)
    expect(ipc.historyEntry?.error?.message).toContain('[redacted]')
    expect(JSON.stringify(ipc.historyEntry)).not.toContain('sk-9f3')
  })

  it('without History a failed run throws the runner\'s own error; cancelling an unknown run says so', async () => {
    const { handlers, plain } = await open(false)
    const error = await failureOf(handlers['query:run']({ connectionId: plain, requestId: 'r4', request: search('broken') }, {}))
    expect(error.toIpc()).not.toHaveProperty('historyEntry')
    expect(await handlers['query:cancel']({ requestId: 'nothing-running' }, {})).toEqual({ cancelled: false })
  })
})
