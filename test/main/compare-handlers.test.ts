import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareHandlers } from '../../src/main/ipc/handlers/compare-handlers'
import { createLogger } from '../../src/main/logging/logger'
import { failureOf } from '../fixtures/failure-of'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { openRegistry } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search } from './support'

/** "Compare": one request on two sides, each named for its connection and what it changes, the server's words scrubbed. */

describe('compareHandlers', () => {
  const tempDir = useTempDirs('qe-compare-handlers')
  let api: RankingServer
  beforeAll(async () => {
    api = await startRankingServer({ paris: ['p1', 'p2', 'p3'], broken: { status: 500, message: 'index key sk-live-123 rejected' } })
  })
  afterAll(() => api?.close())

  async function open() {
    const dataDir = tempDir()
    const { registry } = await openRegistry(dataDir)
    const log = createLogger(dataDir)
    const local = await registry.save({ name: 'Local', authUrl: '', queryUrl: `${api.server.origin}/query`, workspace: 'world', api: 'places', clientId: '' })
    return { handlers: compareHandlers(registry, api.runner, log), log, id: local.id }
  }

  it("runs both sides, each named for its connection and the config it asks (the request's own when it names none)", async () => {
    const { handlers, id } = await open()
    const result = await handlers['compare:run'](
      { requestId: 'c1', request: search('paris', { count: 10, config: 'default' }), a: { connectionId: id }, b: { connectionId: id, config: 'production', version: '2' }, depth: 10 },
      {},
    )
    expect([result.a.label, result.b.label]).toEqual(['Local · config default', 'Local · config production · version 2'])
    expect([result.a.keys, result.b.keys, result.a.error, result.a.total]).toEqual([['p1', 'p2', 'p3'], ['p1', 'p2', 'p3'], null, 3])
  })

  it("a side the service refuses shows its error, with every secret the log knows scrubbed; an unknown connection is refused at once", async () => {
    const { handlers, log, id } = await open()
    log.redact('sk-live-123')
    const result = await handlers['compare:run']({ requestId: 'c2', request: search('broken'), a: { connectionId: id }, b: { connectionId: id }, depth: 10 }, {})
    expect(result.a.status).toBe(500)
    expect(result.a.error).toContain('[redacted]')
    expect(result.a.error).not.toContain('sk-live-123')
    expect((await failureOf(handlers['compare:run']({ requestId: 'c3', request: search('paris'), a: { connectionId: id }, b: { connectionId: 'gone' }, depth: 10 }, {}))).code).toBe('not_found')
  })

  it('a caller gone before the comparison runs gets it cancelled', async () => {
    const { handlers, id } = await open()
    const gone = new AbortController()
    gone.abort()
    const error = await failureOf(handlers['compare:run']({ requestId: 'c4', request: search('paris'), a: { connectionId: id }, b: { connectionId: id }, depth: 10 }, { signal: gone.signal }))
    expect(error.code).toBe('cancelled')
  })
})
