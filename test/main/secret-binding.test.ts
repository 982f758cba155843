import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionTest, ConnectionView } from '../../src/shared/ipc/contract'
import { call, failure, json, keychainMissing, openCore, search, startServer, type TestServer, storedSecret, storedToken } from './support'
import { startWorldService } from '../fixtures/world-service'

/**
 * A stored secret is bound to the origin of the auth URL it was entered for,
 * and a token to the origin of the query URL it was issued for. A profile
 * moved to another host (edited, or mapped from a shared file) must never
 * carry either there: a capture server on a second port sees everything sent
 * to it, and must see neither.
 */

const missing = await keychainMissing()

describe.skipIf(missing)('secrets and tokens stay with the origin they were entered or issued for', () => {
  const secret = `canary-${randomBytes(16).toString('hex')}`
  let service: RunningService
  let capture: TestServer
  let dataDir: string
  let core: AppCore
  const issued = new Set<string>()

  const noteToken = async (id: string) => {
    const token = await storedToken(id)
    if (token) issued.add(token)
  }
  /** Everything the capture server received, as one text. */
  const captured = () => capture.seen.map((request) => `${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${request.body}`).join('\n')
  const expectNothingLeaked = () => {
    const text = captured()
    expect(text).not.toContain(secret)
    for (const token of issued) expect(text).not.toContain(token)
  }

  beforeAll(async () => {
    service = await startWorldService('bound-client', secret)
    // Answers like a real service would, so that the app has every reason to send what it holds.
    capture = await startServer((req, res) => {
      if (req.url?.endsWith('/api/auth')) return json(res, 200, { access_token: `capture-${randomBytes(8).toString('hex')}`, expires_in: 3600 })
      json(res, 401, { message: 'Send me your token' })
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-bound-'))
    core = await openCore(dataDir, { replyCache: { ttlMs: 0 } })
  })
  afterAll(async () => {
    await core?.close()
    await Promise.all([service?.close(), capture?.close()])
    rmSync(dataDir, { recursive: true, force: true })
  })

  const profile = () => ({ name: 'Bound', authUrl: service.authUrl, queryUrl: service.queryUrl, workspace: 'world', api: 'places', clientId: 'bound-client' })
  const port = (url: string) => new URL(url).port
  const moved = (url: string) => url.replace(`:${port(url)}`, `:${port(capture.origin)}`)

  it('a changed auth URL: the secret is cleared, the form is told, and Test connection, Re-authenticate and queries send nothing there', async () => {
    const view = await call<ConnectionView>(core, 'connections:save', profile())
    await call(core, 'secrets:set', { connectionId: view.id, secret })
    await call(core, 'query:run', { connectionId: view.id, requestId: 'a1', request: search('oslo') })
    await noteToken(view.id)
    expect(issued.size).toBe(1)

    const edited = await call<ConnectionView>(core, 'connections:save', { ...profile(), id: view.id, authUrl: moved(service.authUrl) })
    expect(edited.notice).toBe('The client secret must be entered again for the new auth URL.')
    expect(edited.hasSecret).toBe(false)
    expect(await storedSecret(view.id)).toBeNull()

    const test = await call<ConnectionTest>(core, 'connections:test', { connectionId: view.id })
    expect(test.ok).toBe(false)
    expect(test.checks.find((check) => check.step === 'token')!.message).toMatch(/No client secret is stored/)
    expect((await failure(core, 'connections:reauth', { connectionId: view.id })).message).toMatch(/No client secret is stored/)
    expect((await failure(core, 'query:run', { connectionId: view.id, requestId: 'a2', request: search('oslo') })).message).toMatch(/No client secret is stored/)
    expect(capture.seen).toHaveLength(0)
    expectNothingLeaked()
    await call(core, 'connections:delete', { id: view.id })
  })

  it('a changed query URL: the cached token is never sent to the new host', async () => {
    const view = await call<ConnectionView>(core, 'connections:save', profile())
    await call(core, 'secrets:set', { connectionId: view.id, secret })
    await call(core, 'query:run', { connectionId: view.id, requestId: 'b1', request: search('oslo') })
    await noteToken(view.id)

    const edited = await call<ConnectionView>(core, 'connections:save', { ...profile(), id: view.id, queryUrl: moved(service.queryUrl) })
    expect(edited.notice).toBeUndefined()
    expect(edited.hasSecret).toBe(true)
    // The new host refuses every token: the app renews once (at the auth host it trusts) and gives up, never a loop.
    await failure(core, 'query:run', { connectionId: view.id, requestId: 'b2', request: search('oslo') })
    await call(core, 'connections:reauth', { connectionId: view.id })
    await call(core, 'connections:test', { connectionId: view.id })
    expect(capture.seen.length).toBeGreaterThan(0)
    expect(capture.seen.every((request) => !request.url.endsWith('/api/auth'))).toBe(true)
    expectNothingLeaked()
    await call(core, 'connections:delete', { id: view.id })
  })

  it('a secret stored for one auth origin is refused for another even if the profile changed behind the registry (a hand-edited connections.json)', async () => {
    const view = await call<ConnectionView>(core, 'connections:save', profile())
    await call(core, 'secrets:set', { connectionId: view.id, secret })
    await core.close()
    const { readFileSync, writeFileSync } = await import('node:fs')
    const file = join(dataDir, 'connections.json')
    writeFileSync(file, readFileSync(file, 'utf8').split(service.authUrl).join(moved(service.authUrl)))
    core = await openCore(dataDir, { replyCache: { ttlMs: 0 } })
    const listed = (await call<ConnectionView[]>(core, 'connections:list', {})).find((connection) => connection.id === view.id)!
    expect(listed.hasSecret).toBe(false)
    const test = await call<ConnectionTest>(core, 'connections:test', { connectionId: view.id })
    expect(test.checks.find((check) => check.step === 'token')!.message).toBe('The client secret must be entered again for the new auth URL.')
    expect((await failure(core, 'query:run', { connectionId: view.id, requestId: 'c1', request: search('oslo') })).message).toBe(
      'The client secret must be entered again for the new auth URL.',
    )
    expect(capture.seen.filter((request) => request.url.endsWith('/api/auth'))).toHaveLength(0)
    expectNothingLeaked()
  })
})
