import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppCore, type AppCore } from '../../src/main/app/app-core'
import { startBrowserHost, type BrowserHost } from '../../src/main/host/browser-host'

/** Raw HTTP, so tests can send the Host and Origin headers a browser would not let a page forge. */
function send(host: BrowserHost, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const { port } = new URL(host.origin)
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('browser host', () => {
  let dir: string
  let core: AppCore
  let host: BrowserHost
  const ipc = (headers: Record<string, string>, body = '{}') =>
    send(host, '/ipc/app:info', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-host-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Query Explorer</title>')
    core = await createAppCore({ dataDir: join(dir, 'data'), host: 'browser', version: 'test', demo: 'none', keychainService: `qe-host-test-${process.pid}` })
    host = await startBrowserHost({ dispatch: core.dispatch, rendererDir: dir, port: 0 })
  })
  afterAll(async () => {
    await host.close()
    await core.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('binds to loopback and puts the launch key only in the URL fragment', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]{40,}$/)
  })

  it('answers a call that carries the launch key', async () => {
    const answer = await ipc({ 'x-explorer-key': host.key })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, data: { host: 'browser' } })
  })

  it('refuses a call without the launch key, or with a wrong one', async () => {
    expect((await ipc({})).status).toBe(401)
    expect((await ipc({ 'x-explorer-key': `${host.key.slice(0, -1)}x` })).status).toBe(401)
    expect((await ipc({ 'x-explorer-key': '' })).status).toBe(401)
  })

  it('refuses a request whose Host is not its own loopback address (DNS rebinding)', async () => {
    const answer = await ipc({ 'x-explorer-key': host.key, host: 'evil.example:80' })
    expect(answer.status).toBe(403)
    const page = await send(host, '/', { headers: { host: `attacker.test:${new URL(host.origin).port}` } })
    expect(page.status).toBe(403)
  })

  it('refuses a request from another origin, even with the key', async () => {
    const answer = await ipc({ 'x-explorer-key': host.key, origin: 'http://evil.example' })
    expect(answer.status).toBe(403)
    const otherPort = await ipc({ 'x-explorer-key': host.key, origin: 'http://127.0.0.1:1' })
    expect(otherPort.status).toBe(403)
  })

  it('answers bad messages with a readable error, and keeps serving', async () => {
    const notJson = await ipc({ 'x-explorer-key': host.key }, '{nope')
    expect(JSON.parse(notJson.body)).toMatchObject({ ok: false, error: { code: 'validation' } })
    const unknown = await send(host, '/ipc/no:such', { method: 'POST', headers: { 'x-explorer-key': host.key }, body: '{}' })
    expect(JSON.parse(unknown.body).error.message).toMatch(/no:such/)
    const tooBig = await ipc({ 'x-explorer-key': host.key }, JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }))
    expect(tooBig.status).toBe(413)
    expect((await ipc({ 'x-explorer-key': host.key })).status).toBe(200)
  })

  it('serves the renderer but nothing outside its folder', async () => {
    const page = await send(host, '/')
    expect(page.status).toBe(200)
    expect(page.body).toContain('Query Explorer')
    expect((await send(host, '/../../etc/passwd')).status).toBe(404)
    expect((await send(host, '/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404)
  })
})
