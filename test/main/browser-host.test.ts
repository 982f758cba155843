import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAppCore, type AppCore } from '../../src/main/app/app-core'
import { startBrowserHost, type BrowserHost } from '../../src/main/host/browser-host'
import { CODE_LIFETIME_MS } from '../../src/main/host/launch-codes'
import type { Dispatch } from '../../src/main/ipc/dispatch'

type Headers = Record<string, string>

/** Raw HTTP, so tests can send the Host and Origin headers a browser would not let a page forge. */
/** Each request on a connection of its own that closes after the answer, so the host's open connections are the test's to count. */
function send(host: BrowserHost, path: string, options: { method?: string; headers?: Headers; body?: string } = {}) {
  const { port } = new URL(host.origin)
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

const codeOf = (url: string) => /#code=([\w-]+)$/.exec(url)?.[1] ?? ''
const redeem = (host: BrowserHost, code: string, headers: Headers = {}) =>
  send(host, '/session', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ code }) })
const mint = (host: BrowserHost, headers: Headers) => send(host, '/session/code', { method: 'POST', headers })

/** What a page does on its first load: trade the code of a fresh address for a session key. */
async function openSession(host: BrowserHost): Promise<string> {
  const answer = await redeem(host, codeOf(host.pageUrl()))
  expect(answer.status).toBe(200)
  return (JSON.parse(answer.body) as { key: string }).key
}

function recordingLog() {
  const lines: string[] = []
  return {
    lines,
    info: (message: string) => void lines.push(`INFO ${message}`),
    error: (message: string, error?: unknown) => void lines.push(`ERROR ${message}${error ? `: ${String(error)}` : ''}`),
  }
}

describe('browser host', () => {
  let dir: string
  let core: AppCore
  let host: BrowserHost
  let key: string
  const log = recordingLog()
  const ipc = (headers: Headers, body = '{}') =>
    send(host, '/ipc/app:info', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-host-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
    core = await createAppCore({ dataDir: join(dir, 'data'), host: 'browser', version: 'test', demo: 'none', keychainService: `qe-host-test-${process.pid}` })
    host = await startBrowserHost({ dispatch: core.dispatch, rendererDir: dir, port: 0, log })
    key = await openSession(host)
  })
  afterAll(async () => {
    await host.close()
    await core.close()
    rmSync(dir, { recursive: true, force: true })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('binds to loopback and puts only a one-time code in the page address, a new one each time', () => {
    const url = host.pageUrl()
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{43}$/)
    expect(codeOf(host.pageUrl())).not.toBe(codeOf(url))
  })

  it('trades a code for a session key once, and says a session opened without naming either', async () => {
    const code = codeOf(host.pageUrl())
    log.lines.length = 0
    const first = await redeem(host, code)
    expect(first.status).toBe(200)
    const { key: sessionKey } = JSON.parse(first.body) as { key: string }
    expect(sessionKey).toMatch(/^[\w-]{43}$/)
    expect(sessionKey).not.toBe(code)
    expect((await ipc({ 'x-explorer-key': sessionKey })).status).toBe(200)
    expect((await redeem(host, code)).status).toBe(401)
    expect(log.lines).toEqual(['INFO browser session opened'])
  })

  it('refuses a code after its lifetime', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const code = codeOf(host.pageUrl())
    vi.setSystemTime(Date.now() + CODE_LIFETIME_MS + 1_000)
    expect((await redeem(host, code)).status).toBe(401)
  })

  it('refuses a code that is unknown, malformed, or a session key', async () => {
    expect((await redeem(host, 'x'.repeat(43))).status).toBe(401)
    expect((await redeem(host, key)).status).toBe(401)
    const noCode = await send(host, '/session', { method: 'POST', body: '{nope' })
    expect(noCode.status).toBe(400)
    expect((await send(host, '/session')).status).toBe(405)
  })

  it('opens no session for a request whose Host or Origin is not its own, and the code stays unspent', async () => {
    const code = codeOf(host.pageUrl())
    expect((await redeem(host, code, { host: `evil.example:${new URL(host.origin).port}` })).status).toBe(403)
    expect((await redeem(host, code, { origin: 'http://127.0.0.1:1' })).status).toBe(403)
    expect((await redeem(host, code, { origin: 'http://evil.example' })).status).toBe(403)
    expect((await redeem(host, code, { origin: host.origin })).status).toBe(200)
  })

  it('mints a fresh page address only for a session key', async () => {
    expect((await mint(host, {})).status).toBe(401)
    expect((await mint(host, { 'x-explorer-key': `${key.slice(0, -1)}x` })).status).toBe(401)
    expect((await mint(host, { 'x-explorer-key': codeOf(host.pageUrl()) })).status).toBe(401)
    expect((await mint(host, { 'x-explorer-key': key, origin: 'http://evil.example' })).status).toBe(403)
    const minted = await mint(host, { 'x-explorer-key': key })
    expect(minted.status).toBe(200)
    const { url } = JSON.parse(minted.body) as { url: string }
    expect(url.startsWith(`${host.origin}/#code=`)).toBe(true)
    expect((await redeem(host, codeOf(url))).status).toBe(200)
  })

  it('answers a call that carries a session key', async () => {
    const answer = await ipc({ 'x-explorer-key': key })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, data: { host: 'browser' } })
  })

  it('refuses a call without a session key, with a wrong one, or with a code instead', async () => {
    expect((await ipc({})).status).toBe(401)
    expect((await ipc({ 'x-explorer-key': `${key.slice(0, -1)}x` })).status).toBe(401)
    expect((await ipc({ 'x-explorer-key': '' })).status).toBe(401)
    expect((await ipc({ 'x-explorer-key': codeOf(host.pageUrl()) })).status).toBe(401)
  })

  it('refuses a request whose Host is not its own loopback address (DNS rebinding)', async () => {
    const answer = await ipc({ 'x-explorer-key': key, host: 'evil.example:80' })
    expect(answer.status).toBe(403)
    const page = await send(host, '/', { headers: { host: `attacker.test:${new URL(host.origin).port}` } })
    expect(page.status).toBe(403)
  })

  it('refuses a request from another origin, even with the key', async () => {
    const answer = await ipc({ 'x-explorer-key': key, origin: 'http://evil.example' })
    expect(answer.status).toBe(403)
    const otherPort = await ipc({ 'x-explorer-key': key, origin: 'http://127.0.0.1:1' })
    expect(otherPort.status).toBe(403)
  })

  it('answers bad messages with a readable error, and keeps serving', async () => {
    const notJson = await ipc({ 'x-explorer-key': key }, '{nope')
    expect(JSON.parse(notJson.body)).toMatchObject({ ok: false, error: { code: 'validation' } })
    const unknown = await send(host, '/ipc/no:such', { method: 'POST', headers: { 'x-explorer-key': key }, body: '{}' })
    expect(JSON.parse(unknown.body).error.message).toMatch(/no:such/)
    const tooBig = await ipc({ 'x-explorer-key': key }, JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }))
    expect(tooBig.status).toBe(413)
    expect((await ipc({ 'x-explorer-key': key })).status).toBe(200)
  })

  it('refuses a message over the bound of its channel in words that name it, not a bare 413', async () => {
    const answer = await ipc({ 'x-explorer-key': key }, JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }))
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toEqual({ message: 'The message to "app:info" is larger than the app host takes (1.0 MiB); it was not read.' })
  })

  it('answers 400 to a path with a broken percent-encoding', async () => {
    for (const path of ['/%ff', '/%E0%A4%A', '/assets/%']) expect((await send(host, path)).status, path).toBe(400)
    const channel = await send(host, '/ipc/%ff', { method: 'POST', headers: { 'x-explorer-key': key }, body: '{}' })
    expect(channel.status).toBe(400)
    expect((await ipc({ 'x-explorer-key': key })).status).toBe(200)
  })
})

/** A host over a dispatch of the test's own, for what the real handler table never does. */
describe('browser host with a misbehaving dispatch', () => {
  let dir: string
  let host: BrowserHost
  let key: string
  const log = recordingLog()
  let dispatch: Dispatch
  const call = (channel: string) =>
    send(host, `/ipc/${channel}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-explorer-key': key }, body: '{}' })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-host-'))
    host = await startBrowserHost({ dispatch: (...args) => dispatch(...args), rendererDir: dir, port: 0, log })
    key = await openSession(host)
  })
  afterAll(async () => {
    await host.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('logs a request it answers with 500', async () => {
    dispatch = async () => {
      throw new Error('the handler table broke')
    }
    log.lines.length = 0
    const answer = await call('app:info')
    expect(answer.status).toBe(500)
    expect(log.lines).toEqual([expect.stringMatching(/^ERROR browser host: POST \/ipc\/app:info failed: Error: the handler table broke/)])
  })

  it('answers a reply JSON cannot write with a readable internal error, and logs it', async () => {
    let deep: object = {}
    for (let i = 0; i < 100_000; i++) deep = { a: deep }
    dispatch = async () => ({ ok: true, data: deep })
    log.lines.length = 0
    const answer = await call('app:info')
    expect(answer.status).toBe(200)
    const reply = JSON.parse(answer.body) as { ok: boolean; error: { code: string; message: string } }
    expect(reply).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(reply.error.message).toMatch(/"app:info".*could not be sent/)
    expect(log.lines).toEqual([expect.stringMatching(/^ERROR browser host: the reply of "app:info" could not be written as JSON: RangeError/)])

    dispatch = async () => ({ ok: true, data: { count: 1n } })
    expect(JSON.parse((await call('app:info')).body)).toMatchObject({ ok: false, error: { code: 'internal' } })
  })

  it('logs nothing for a client that hangs up in the middle of its request, and keeps serving', async () => {
    dispatch = async () => ({ ok: true, data: null })
    log.lines.length = 0
    const { port } = new URL(host.origin)
    await vi.waitFor(async () => expect(await host.openConnections()).toBe(0), { timeout: 60_000 })
    const socket = connect(Number(port), '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(`POST /ipc/app:info HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-explorer-key: ${key}\r\ncontent-length: 1000\r\n\r\n{"a":`)
    await vi.waitFor(async () => expect(await host.openConnections()).toBe(1), { timeout: 60_000 })
    socket.destroy()
    // The host has seen the hang-up once the connection is gone from its list.
    await vi.waitFor(async () => expect(await host.openConnections()).toBe(0), { timeout: 60_000 })
    expect(log.lines).toEqual([])
    expect((await call('app:info')).status).toBe(200)
  })

  it('aborts the work of a call whose client went away (a closed tab), and only then', async () => {
    let started!: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    let seen: AbortSignal | undefined
    // Waits for the abort, as a query handler waits on its upstream request.
    dispatch = (_channel, _payload, context) => {
      seen = context?.signal
      started()
      return new Promise((resolve) => {
        const done = () => resolve({ ok: false, error: { code: 'cancelled', message: 'cancelled' } })
        if (seen?.aborted) done()
        seen?.addEventListener('abort', done)
      })
    }
    const { port } = new URL(host.origin)
    const req = httpRequest({ host: '127.0.0.1', port, path: '/ipc/query:run', method: 'POST', headers: { 'x-explorer-key': key } })
    req.on('error', () => undefined)
    req.end('{}')
    await running
    expect(seen).toBeInstanceOf(AbortSignal)
    expect(seen!.aborted).toBe(false)
    req.destroy()
    await vi.waitFor(() => expect(seen!.aborted).toBe(true), { timeout: 5_000 })

    let answered: AbortSignal | undefined
    dispatch = async (_channel, _payload, context) => {
      answered = context?.signal
      return { ok: true, data: null }
    }
    // On a connection that closes after the answer: once it is gone, every close event of the call has been seen.
    expect((await call('app:info')).status).toBe(200)
    await vi.waitFor(async () => expect(await host.openConnections()).toBe(0), { timeout: 60_000 })
    expect(answered?.aborted).toBe(false)
  })
})
