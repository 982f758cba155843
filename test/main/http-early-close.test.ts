import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TokenManager } from '../../src/main/auth/token-manager'
import { HttpClient } from '../../src/main/http/http-client'
import { QueryRunner } from '../../src/main/http/query-runner'
import type { ConnectionView, QueryReply } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { call, json, keychainMissing, openCore, RESULTS_PAGE, search, startServer, type TestServer } from './support'
import { failureOf } from '../fixtures/failure-of'

/**
 * A deployment may close a connection before any byte of the answer: a
 * kept-alive connection a server or proxy drops just as the next request goes
 * out, or a server that will not serve a connection. A GET is then sent once
 * more on a fresh connection, as browsers do, and counted; a close after the
 * answer began, or a second early close, is an error that says the
 * connection failed. Each case is a real server on 127.0.0.1 doing it.
 */

const SEARCH: QueryRequest = { workspace: 'world', api: 'public', steps: [{ endpoint: 'search', parameters: { query: 'paris' } }], responseType: 'results', options: {} }

/** Which connection each request came on: its socket, numbered in order of arrival. */
function connections() {
  const numbers = new Map<Socket, number>()
  const seen: number[] = []
  return {
    seen,
    /** The number of this request's connection, and how many requests that connection had carried before it. */
    note(socket: Socket): { connection: number; before: number } {
      if (!numbers.has(socket)) numbers.set(socket, numbers.size + 1)
      const connection = numbers.get(socket)!
      const before = seen.filter((n) => n === connection).length
      seen.push(connection)
      return { connection, before }
    },
  }
}

/** The app's query runner; these queries go to a public API, so no token is ever asked for. */
const runnerOn = (http: HttpClient) => new QueryRunner(http, new TokenManager(http))

describe('a connection closed early', () => {
  let server: TestServer | undefined
  let http: HttpClient | undefined
  const lines: string[] = []
  // One connection per origin, so that a second request goes out on the first one's kept-alive connection.
  const client = () => (http = new HttpClient({ connections: 1, log: (line) => lines.push(line) }))
  afterEach(async () => {
    await http?.close()
    await server?.close()
    lines.length = 0
  })

  it('a kept-alive connection dropped as the next query goes out: the query is sent again on a fresh connection, answered, and counted', async () => {
    const on = connections()
    server = await startServer((req, res) => {
      // The second request on a connection finds it closed: the keep-alive race, made certain.
      if (on.note(req.socket).before >= 1) return void req.socket.destroy()
      json(res, 200, RESULTS_PAGE)
    })
    const runner = runnerOn(client())
    const target = { key: 'c', queryUrl: `${server.origin}/query`, account: null }
    expect((await runner.run('first', target, SEARCH)).status).toBe(200)
    const second = await runner.run('second', target, SEARCH, { fresh: true })
    expect(second).toMatchObject({ status: 200, body: RESULTS_PAGE, cached: false })
    // Connection 1 carried the first query and dropped the second; connection 2 was new for the retry.
    expect(on.seen).toEqual([1, 1, 2])
    expect(http!.earlyCloseRetries).toBe(1)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toBe(`GET to ${server.origin}: the connection closed before the answer began; sent again on a fresh connection (1 such in this run)`)
  })

  it('a server that closes the first connection before answering: the GET is answered on the second', async () => {
    const on = connections()
    server = await startServer((req, res) => {
      if (on.note(req.socket).connection === 1) return void req.socket.destroy()
      json(res, 200, { ok: true })
    })
    const response = await client().request({ url: `${server.origin}/query/world/api/public/` })
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body.toString())).toEqual({ ok: true })
    expect(on.seen).toEqual([1, 2])
    expect(http!.earlyCloseRetries).toBe(1)
  })

  it('closed before answering again on the fresh connection: one retry, never a loop, and an error that says the connection fails', async () => {
    const on = connections()
    server = await startServer((req) => {
      on.note(req.socket)
      req.socket.destroy()
    })
    const error = await failureOf(client().request({ url: `${server.origin}/query/world/api/public/` }))
    expect(error.code).toBe('network')
    const host = new URL(server.origin).host
    expect(error.message).toBe(
      `${host} closed the connection before answering, and again when the request was sent once more on a fresh connection: the connection to the service fails (a proxy or the service dropping connections?).`,
    )
    expect(on.seen).toEqual([1, 2])
    expect(http!.earlyCloseRetries).toBe(1)
  })

  it('closed after the answer began: not sent again, an error worded as a connection failure, never as bad credentials', async () => {
    const on = connections()
    server = await startServer((req, res) => {
      on.note(req.socket)
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' })
      // The status line, headers and part of the body, then the end of the connection (no reset, so all of it is read).
      res.write('{"offset":0,"count":10,"items":[', () => res.socket?.end())
    })
    const runner = runnerOn(client())
    const error = await failureOf(runner.run('mid-body', { key: 'c', queryUrl: `${server.origin}/query`, account: null }, SEARCH))
    expect(error.code).toBe('network')
    expect(error.message).toBe(`${new URL(server.origin).host} closed the connection before the answer was complete.`)
    expect(on.seen).toEqual([1])
    expect(http!.earlyCloseRetries).toBe(0)
    expect(lines).toEqual([])
  })

  it('a POST (a token request) closed before answering is not sent again: it may have been acted on', async () => {
    const on = connections()
    server = await startServer((req) => {
      on.note(req.socket)
      req.socket.destroy()
    })
    const error = await failureOf(client().request({ url: `${server.origin}/auth/api/auth`, method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }))
    expect(error.code).toBe('network')
    expect(on.seen).toEqual([1])
    expect(http!.earlyCloseRetries).toBe(0)
  })
})

const missing = await keychainMissing()

describe.skipIf(missing)('in the app', () => {
  it("a query whose first connection closes before answering is the user's answer all the same, and the log says it was sent again", async () => {
    let gets = 0
    const server = await startServer((req, res) => {
      if (req.url === '/auth/api/auth') return json(res, 200, { access_token: 'early-close-token-1234', expires_in: 3600 })
      // The first query's connection is dropped unanswered, whichever connection it came on.
      if (++gets === 1) return void req.socket.destroy()
      json(res, 200, RESULTS_PAGE)
    })
    const dataDir = mkdtempSync(join(tmpdir(), 'qe-early-close-'))
    const core = await openCore(dataDir)
    try {
      const fields = { name: 'Drops a connection', authUrl: `${server.origin}/auth`, queryUrl: `${server.origin}/query`, workspace: 'world', api: 'places', clientId: 'early' }
      const view = await call<ConnectionView>(core, 'connections:save', fields)
      await call(core, 'secrets:set', { connectionId: view.id, secret: 'early-close-secret' })
      const reply = await call<QueryReply>(core, 'query:run', { connectionId: view.id, requestId: 'q', request: search('paris'), fresh: true })
      expect(reply).toMatchObject({ status: 200, body: RESULTS_PAGE })
      expect(gets).toBe(2)
      const log = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8')
      expect(log).toContain(`GET to ${server.origin}: the connection closed before the answer began; sent again on a fresh connection (1 such in this run)`)
    } finally {
      await core.close()
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
