import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import { call, filesUnder, KEYCHAIN_SERVICE, keychainMissing as findKeychainMissing, openCore, search as searchFor, storedSecret } from './support'

/**
 * The main process end to end, without a window: the handler table over real
 * HTTP to the embedded service, and the real OS keychain where one answers.
 */

// In CI a keychain must answer; elsewhere its absence skips these tests and says why.
const keychainMissing = await findKeychainMissing()

const search = (text: string, offset = 0) => searchFor(text, { count: 10, offset })

describe.skipIf(keychainMissing)('connections with an M2M account', () => {
  let service: RunningService
  let dataDir: string
  const cores: AppCore[] = []

  const open = async () => {
    const core = await openCore(dataDir)
    cores.push(core)
    return core
  }
  const addConnection = async (core: AppCore, secret: string): Promise<string> => {
    const view: { id: string } = await call(core, 'connections:save', {
      name: 'Local service',
      authUrl: service.authUrl,
      queryUrl: service.queryUrl,
      workspace: service.workspace,
      api: 'places',
      clientId: service.account.clientId,
    })
    await call(core, 'secrets:set', { connectionId: view.id, secret })
    return view.id
  }

  beforeAll(async () => {
    service = await startService({ port: 0 })
  })
  afterAll(async () => service.close())
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('requests a token once, reuses it across queries, and again after a restart (from the keychain)', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'qe-core-'))
    const first = await open()
    const id = await addConnection(first, service.account.clientSecret)
    const before = service.tokenRequestCount()
    for (const offset of [0, 10, 20]) {
      const reply: { status: number; body: { items: { rank: number }[] } } = await call(first, 'query:run', {
        connectionId: id,
        requestId: `r${offset}`,
        request: search('san', offset),
      })
      expect(reply.status).toBe(200)
      expect(reply.body.items[0]?.rank).toBe(offset + 1)
    }
    expect(service.tokenRequestCount() - before).toBe(1)
    await first.close()

    const second = await open()
    await call(second, 'query:run', { connectionId: id, requestId: 'again', request: search('paris') })
    expect(service.tokenRequestCount() - before).toBe(1)
  })

  it('asks for a new token once when the service revoked the old one, and replays the query', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'qe-core-'))
    const core = await open()
    const id = await addConnection(core, service.account.clientSecret)
    await call(core, 'query:run', { connectionId: id, requestId: 'a', request: search('paris') })
    const before = service.tokenRequestCount()
    service.revokeTokens()
    // fresh: past the short-lived cache of identical requests, so the query really goes out.
    const reply: { status: number } = await call(core, 'query:run', { connectionId: id, requestId: 'b', request: search('paris'), fresh: true })
    expect(reply.status).toBe(200)
    expect(service.tokenRequestCount() - before).toBe(1)
  })

  it('keeps the client secret and the token in the keychain and nowhere under the data folder or in replies', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'qe-core-'))
    const core = await open()
    const canary = service.account.clientSecret
    const id = await addConnection(core, canary)
    const reply = await core.dispatch('query:run', { connectionId: id, requestId: 'c', request: search('paris') })
    const failed = await core.dispatch('query:run', { connectionId: id, requestId: 'd', request: { ...search('paris'), api: 'nope' } })
    const listed = await core.dispatch('connections:list', {})

    const keytar = createRequire(import.meta.url)('keytar') as { getPassword(s: string, a: string): Promise<string | null> }
    expect((await storedSecret(id))?.secret).toBe(canary)
    const token = await keytar.getPassword(KEYCHAIN_SERVICE, `token:${id}`)
    expect(token).toBeTruthy()
    const tokenValue = (JSON.parse(token!) as { token?: string; accessToken?: string }).token ?? ''
    expect(tokenValue.length).toBeGreaterThan(8)

    const files = filesUnder(dataDir)
    expect(files.some((file) => file.endsWith('connections.json'))).toBe(true)
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      expect(text, file).not.toContain(canary)
      expect(text, file).not.toContain(tokenValue)
    }
    for (const answer of [reply, failed, listed]) {
      expect(JSON.stringify(answer)).not.toContain(canary)
      expect(JSON.stringify(answer)).not.toContain(tokenValue)
    }
  })

  it('says "Invalid client credentials" for a wrong secret, without echoing it', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'qe-core-'))
    const core = await open()
    const id = await addConnection(core, 'wrong-canary-secret-123')
    const result = await core.dispatch('query:run', { connectionId: id, requestId: 'w', request: search('paris') })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.message).toContain('Invalid client credentials')
    expect(result.error.message).not.toContain('wrong-canary-secret-123')
  })
})
