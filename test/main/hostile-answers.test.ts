import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { call, failure, json, keychainMissing, openCore, search, startServer, type TestServer } from './support'

/**
 * A hostile (or broken) server's answers, over real HTTP on 127.0.0.1: what
 * it sends must cost bounded memory and time, reach the log only as data,
 * and come back as a sentence that names the limit.
 */

const missing = await keychainMissing()
const MiB = 1024 * 1024

describe.skipIf(missing)('answers of a hostile server', () => {
  let server: TestServer
  let dataDir: string
  let core: AppCore
  /** Requests whose socket closed before the answer was complete, by query text. */
  const closedEarly: string[] = []
  const bigWaiting: (() => void)[] = []

  const connection = async (name: string, extra: { deadlineSeconds?: number; auth?: string } = {}) => {
    const view = await call<ConnectionView>(core, 'connections:save', {
      name,
      authUrl: `${server.origin}/${extra.auth ?? 'auth'}`,
      queryUrl: `${server.origin}/query`,
      workspace: 'world',
      api: 'places',
      clientId: name.toLowerCase().replace(/\W+/g, '-'),
      ...(extra.deadlineSeconds !== undefined ? { deadlineSeconds: extra.deadlineSeconds } : {}),
    })
    await call(core, 'secrets:set', { connectionId: view.id, secret: 'hostile-secret' })
    return view.id
  }

  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/auth/api/auth') return json(res, 200, { access_token: 'hostile-token-1234', expires_in: 3600 })
      if (req.url === '/crlf/api/auth') return json(res, 200, { access_token: 'abc\r\nX-Injected: yes', expires_in: 3600 })
      const query = decodeURIComponent(req.url ?? '')
      const text = /\/p\/query\/([^/]+)/.exec(query)?.[1] ?? ''
      res.on('close', () => {
        if (!res.writableFinished) closedEarly.push(text)
      })
      if (text.startsWith('big')) {
        // 4.9 MiB of a valid results page: under the per-answer cap, but six at once are over the budget.
        const filler = 'x'.repeat(Math.round(4.9 * MiB))
        const answer = () => json(res, 200, { offset: 0, count: 1, type: ['OBJ'], items: [{ rank: 1, probability: 1, tuple: [{ id: 'a', class: ['C'], attributes: { filler } }] }] })
        if (!/^big\d$/.test(text)) return answer()
        // The six are answered together, once all have arrived, so that they are read at the same time.
        bigWaiting.push(answer)
        if (bigWaiting.length === 6) for (const send of bigWaiting.splice(0)) send()
        return
      }
      if (text === 'deep') {
        const depth = 100_000
        const body = `{"offset":0,"count":1,"type":["OBJ"],"items":[{"rank":1,"probability":1,"tuple":[{"id":"a","class":["C"],"attributes":{"n":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}]}]}`
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(body)
      }
      if (text === 'drip' || text === 'hang') {
        // A byte every 100 ms: the body timeout (which counts gaps) never fires.
        res.writeHead(200, { 'content-type': 'application/json' })
        if (text === 'hang') return
        const timer = setInterval(() => res.write(' '), 100)
        res.on('close', () => clearInterval(timer))
        return
      }
      if (text === 'forge') {
        return json(res, 400, { message: 'bad\n2026-01-01T00:00:00.000Z ERROR forged line\r\u001b[31mred\u001b[0m' })
      }
      json(res, 200, { offset: 0, count: 0, type: ['OBJ'], items: [] })
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-hostile-'))
    core = await openCore(dataDir, { http: { maxResponseBytes: 5 * MiB, maxBytesInFlight: 10 * MiB }, replyCache: { ttlMs: 0 } })
  })
  afterAll(async () => {
    await core?.close()
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('bounds the bytes of answers read at once: of six 4.9 MiB answers against a 10 MiB budget some are stopped, with a message', async () => {
    const id = await connection('Big')
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => core.dispatch('query:run', { connectionId: id, requestId: `big-${i}`, request: search(`big${i}`) })),
    )
    const stopped = replies.filter((reply) => !reply.ok)
    expect(stopped.length).toBeGreaterThanOrEqual(1)
    expect(replies.filter((reply) => reply.ok).length).toBeGreaterThanOrEqual(1)
    for (const reply of stopped) {
      expect(reply).toMatchObject({ ok: false, error: { code: 'too_large' } })
      if (!reply.ok) expect(reply.error.message).toMatch(/answers being read at once hold more than 10\.0 MiB together/)
    }
    // Once they are done, the budget is whole again.
    expect((await core.dispatch('query:run', { connectionId: id, requestId: 'big-after', request: search('big') })).ok).toBe(true)
  })

  it('refuses an answer nested 100,000 levels deep with a message naming the limit, and goes on', async () => {
    const id = await connection('Deep')
    const error = await failure(core, 'query:run', { connectionId: id, requestId: 'deep', request: search('deep') })
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/nested deeper than 64 levels/)
    expect((await core.dispatch('query:run', { connectionId: id, requestId: 'ok', request: search('fine') })).ok).toBe(true)
  })

  it("a server dripping a byte every 100 ms is stopped at the connection's deadline", async () => {
    const id = await connection('Drip', { deadlineSeconds: 1 })
    const error = await failure(core, 'query:run', { connectionId: id, requestId: 'drip', request: search('drip') })
    expect(error.code).toBe('timeout')
    expect(error.message).toMatch(/did not complete the answer within 1 s \(the request's deadline; it can be changed in the connection's advanced settings\)/)
    // The app hung up: the server sees its socket close before the answer is complete.
    await vi.waitFor(() => expect(closedEarly).toContain('drip'), { timeout: 60_000 })
  })

  it('the deadline is an advanced setting with its rule', async () => {
    const error = await failure(core, 'connections:save', {
      name: 'Bad deadline', authUrl: server.origin, queryUrl: server.origin, workspace: 'w', api: 'a', clientId: 'c', deadlineSeconds: 0.5,
    })
    expect(error.message).toBe('Request deadline: a whole number of seconds from 1 to 600 (or leave it empty for 60), not 0.5.')
  })

  it('when the caller goes away (its signal aborts), the upstream request is aborted', async () => {
    const id = await connection('Gone')
    const caller = new AbortController()
    const running = core.dispatch('query:run', { connectionId: id, requestId: 'gone', request: search('hang') }, { signal: caller.signal })
    // The request is at the server, which holds it open.
    await vi.waitFor(() => expect(server.seen.some((seen) => seen.url.includes('/p/query/hang'))).toBe(true), { timeout: 60_000 })
    expect(closedEarly).not.toContain('hang')
    caller.abort()
    expect(await running).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    await vi.waitFor(() => expect(closedEarly).toContain('hang'), { timeout: 60_000 })
  })

  it("a server's error text with CR, LF and ESC cannot forge a log line", async () => {
    const id = await connection('Forge')
    const error = await failure(core, 'query:run', { connectionId: id, requestId: 'forge', request: search('forge') })
    expect(error.message).toContain('forged line')
    const log = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8')
    expect(log).toContain('forged line')
    expect(log).not.toMatch(/[\r\u001b]/)
    const lines = log.trimEnd().split('\n')
    for (const line of lines) {
      const entry = JSON.parse(line) as { time: string; level: string; message: string }
      expect(Object.keys(entry)).toEqual(['time', 'level', 'message'])
    }
    expect(lines.some((line) => line.startsWith('2026-01-01'))).toBe(false)
  })

  it('a token with CR/LF in it is refused as malformed, never put in a header', async () => {
    const id = await connection('Crlf', { auth: 'crlf' })
    const before = server.seen.length
    const error = await failure(core, 'query:run', { connectionId: id, requestId: 'crlf', request: search('x') })
    expect(error.message).toMatch(/^The auth host's token is malformed: it holds characters a token cannot have/)
    expect(server.seen.slice(before).filter((seen) => seen.url.startsWith('/query/'))).toHaveLength(0)
  })
})
