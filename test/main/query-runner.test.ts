import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { TokenManager } from '../../src/main/auth/token-manager'
import { memorySecretStore } from '../../src/main/credentials/secret-store'
import { HttpClient } from '../../src/main/http/http-client'
import { QueryRunner, type QueryTarget } from '../../src/main/http/query-runner'
import { startService, type RunningService } from '../../src/service'
import type { QueryRequest } from '../../src/shared/query/model'
import { json, RESULTS_PAGE, search, startServer, type TestServer } from './support'
import { failureOf } from '../fixtures/failure-of'

/**
 * The query runner is what every query of the window goes through: the
 * account's token, sharing of identical requests (one on the wire, one kept
 * answer for a while), cancelling a run, refusing a request that is not valid
 * before anything is sent, and the sentences for error statuses and answers of
 * the wrong shape. Each case is a real server on 127.0.0.1: the embedded
 * service, or a small one that holds or refuses answers on purpose.
 */

/** A server whose answers wait until the test gives them: requests are kept with a promise for each next arrival. */
function heldServer() {
  const held: { req: IncomingMessage; res: ServerResponse }[] = []
  let arrived: (() => void) | null = null
  return {
    held,
    handle: (req: IncomingMessage, res: ServerResponse) => {
      held.push({ req, res })
      arrived?.()
    },
    /** Resolves once `count` requests have arrived. */
    async arrivals(count: number): Promise<void> {
      while (held.length < count) await new Promise<void>((resolve) => (arrived = resolve))
    },
  }
}

/** Resolves when the server side of a request sees its connection closed. */
const closed = (req: IncomingMessage) => new Promise<void>((resolve) => (req.socket.destroyed ? resolve() : req.socket.once('close', () => resolve())))

const PUBLIC: QueryRequest = { ...search('paris'), api: 'public' }

describe('the query runner', () => {
  let server: TestServer | undefined
  let service: RunningService | undefined
  let http: HttpClient
  let now = 1_000_000
  const runner = (cacheMs = 30_000) => {
    http = new HttpClient()
    return new QueryRunner(http, new TokenManager(http), { ttlMs: cacheMs }, () => now)
  }
  const targetOn = (origin: string, key = 'c1'): QueryTarget => ({ key, queryUrl: `${origin}/query`, account: null })

  afterEach(async () => {
    await http?.close()
    await server?.close()
    await service?.close()
    server = undefined
    service = undefined
  })

  it("runs a query on the embedded service with the account's token, which the reply never holds", async () => {
    service = await startService({ port: 0, log: () => undefined })
    const queries = runner()
    const { clientSecret, clientId } = service.account
    const target: QueryTarget = {
      key: 'demo',
      queryUrl: service.queryUrl,
      account: {
        key: 'demo',
        authUrl: service.authUrl,
        queryOrigin: new URL(service.queryUrl).origin,
        workspace: service.workspace,
        clientId,
        secret: async () => clientSecret,
        cache: memorySecretStore('in memory for the test'),
      },
    }
    const reply = await queries.run('r1', target, search('paris', { count: 3 }))
    expect(reply).toMatchObject({ status: 200, cached: false })
    expect(reply.url).toBe(`${service.queryUrl}/world/api/places/e/search/p/query/paris/results?count=3`)
    const body = reply.body as { items: { rank: number }[] }
    expect(body.items.map((item) => item.rank)).toEqual([1, 2, 3])
    const token = await target.account!.cache.get('token:demo')
    expect(token).not.toBeNull()
    expect(JSON.stringify(reply)).not.toContain(JSON.parse(token!).token)
    expect(service.tokenRequestCount()).toBe(1)
  })

  it('sends identical requests of one connection once while under way, keeps the answer for the cache window, and asks again after it, on Run again, or for another connection', async () => {
    const holding = heldServer()
    server = await startServer(holding.handle)
    const queries = runner(30_000)
    const target = targetOn(server.origin)
    const first = queries.run('tab-1', target, PUBLIC)
    const second = queries.run('tab-2', target, PUBLIC)
    await holding.arrivals(1)
    json(holding.held[0]!.res, 200, RESULTS_PAGE)
    expect(await first).toMatchObject({ status: 200, body: RESULTS_PAGE, cached: false })
    expect(await second).toMatchObject({ status: 200, body: RESULTS_PAGE, cached: false })
    expect(server.seen).toHaveLength(1)

    // Within the window: the kept answer, said to be one.
    now += 29_999
    expect(await queries.run('tab-1', target, PUBLIC)).toMatchObject({ body: RESULTS_PAGE, cached: true })
    expect(server.seen).toHaveLength(1)

    // Run again, another connection to the same server, and the window over: each asks the service.
    const answered = Promise.all([
      queries.run('tab-1', target, PUBLIC, { fresh: true }),
      queries.run('tab-3', targetOn(server.origin, 'c2'), PUBLIC),
    ])
    await holding.arrivals(3)
    for (const { res } of holding.held.slice(1)) json(res, 200, RESULTS_PAGE)
    expect((await answered).map((reply) => reply.cached)).toEqual([false, false])
    now += 30_001
    const late = queries.run('tab-1', target, PUBLIC)
    await holding.arrivals(4)
    json(holding.held[3]!.res, 200, RESULTS_PAGE)
    expect(await late).toMatchObject({ cached: false })
    expect(server.seen).toHaveLength(4)
  })

  it('cancel stops the request on the wire once nobody waits for it; a second tab waiting for the same answer still gets it', async () => {
    const holding = heldServer()
    server = await startServer(holding.handle)
    const queries = runner()
    const target = targetOn(server.origin)

    const alone = queries.run('alone', target, PUBLIC)
    await holding.arrivals(1)
    expect(queries.cancel('alone')).toBe(true)
    expect(await failureOf(alone)).toMatchObject({ code: 'cancelled', message: 'The request was cancelled.' })
    await closed(holding.held[0]!.req)
    // Nothing is left to cancel under that id.
    expect(queries.cancel('alone')).toBe(false)

    const request = search('lyon')
    const leaving = queries.run('leaving', target, { ...request, api: 'public' })
    const staying = queries.run('staying', target, { ...request, api: 'public' })
    await holding.arrivals(2)
    queries.cancel('leaving')
    expect(await failureOf(leaving)).toMatchObject({ code: 'cancelled' })
    json(holding.held[1]!.res, 200, RESULTS_PAGE)
    expect(await staying).toMatchObject({ status: 200, body: RESULTS_PAGE })
    expect(server.seen).toHaveLength(2)
  })

  it('a new run under the same id cancels the one before it, and a caller that goes away stops waiting', async () => {
    const holding = heldServer()
    server = await startServer(holding.handle)
    const queries = runner()
    const target = targetOn(server.origin)
    const before = queries.run('tab', target, PUBLIC)
    await holding.arrivals(1)
    const after = queries.run('tab', target, { ...search('rome'), api: 'public' })
    expect(await failureOf(before)).toMatchObject({ code: 'cancelled' })
    await closed(holding.held[0]!.req)
    await holding.arrivals(2)
    json(holding.held[1]!.res, 200, RESULTS_PAGE)
    expect(await after).toMatchObject({ status: 200 })

    const window = new AbortController()
    const gone = queries.run('closed-tab', target, { ...search('oslo'), api: 'public' }, { signal: window.signal })
    await holding.arrivals(3)
    window.abort()
    expect(await failureOf(gone)).toMatchObject({ code: 'cancelled' })
    await closed(holding.held[2]!.req)
  })

  it('refuses a request that is not valid before anything is sent, naming the field and the rule', async () => {
    server = await startServer((_req, res) => json(res, 200, RESULTS_PAGE))
    const queries = runner()
    const error = await failureOf(queries.run('bad', targetOn(server.origin), { ...PUBLIC, options: { count: 0 } }))
    expect(error.code).toBe('validation')
    expect(error.message).toMatch(/count/)
    expect(error.extra.problems?.[0]?.field).toMatch(/count/)
    await expect(queries.fetchBytes(targetOn(server.origin), { ...PUBLIC, options: { count: 0 } })).rejects.toMatchObject({ code: 'validation' })
    expect(server.seen).toHaveLength(0)
  })

  it('turns an error status into the sentence the user reads, and does not keep it: the same run asks again', async () => {
    let status = 404
    server = await startServer((_req, res) => (status === 200 ? json(res, 200, RESULTS_PAGE) : json(res, status, { message: 'No such api: world/public' })))
    const queries = runner()
    const target = targetOn(server.origin)
    const error = await failureOf(queries.run('r', target, PUBLIC))
    expect(error).toMatchObject({ code: 'http', extra: { status: 404, serviceError: 'api-not-found' } })
    expect(error.message).toBe(
      'The service answered 404: No such api: world/public. Check the API name ("public") and the workspace ("world"): the service has no such API in that workspace.',
    )
    status = 200
    expect(await queries.run('r', target, PUBLIC)).toMatchObject({ status: 200, cached: false })
    expect(server.seen).toHaveLength(2)
  })

  it('refuses an answer that does not have the shape of its response type, saying where', async () => {
    server = await startServer((_req, res) => json(res, 200, { offset: 0, count: 10, type: ['OBJ'], items: [{ rank: 'first' }] }))
    const error = await failureOf(runner().run('r', targetOn(server.origin), PUBLIC))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/^The results response does not have the expected shape \(items\.0\.rank/)
  })

  it('fetches an export page as the bytes sent, never shared or kept', async () => {
    const csv = 'rank,probability,1.id\r\n1,1,paris\r\n'
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' })
      res.end(csv)
    })
    const queries = runner()
    const request: QueryRequest = { ...PUBLIC, options: { format: 'csv' } }
    for (let times = 0; times < 2; times++) {
      const raw = await queries.fetchBytes(targetOn(server.origin), request)
      expect(raw).toMatchObject({ status: 200, contentType: 'text/csv; charset=utf-8' })
      expect(raw.body.toString('utf8')).toBe(csv)
      expect(raw.url).toMatch(/\/results\?format=csv$/)
    }
    expect(server.seen).toHaveLength(2)
  })
})
