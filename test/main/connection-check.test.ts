import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionCheckResult, ConnectionView, QueryReply } from '../../src/shared/ipc/contract'
import { call, failure, filesUnder, KEYCHAIN_SERVICE, keychainMissing, openCore, search, startServer, storedSecret, storedToken, type TestServer } from './support'

/**
 * "Test connection" tests the form as it stands and saves nothing; "Duplicate
 * connection" copies a profile and its client secret inside the main process.
 * Against the embedded service (started as this core's demo) and the real
 * keychain; every reply is kept and searched for the secrets at the end.
 */

const missing = await keychainMissing()
const keytar = createRequire(import.meta.url)('keytar') as { findCredentials(service: string): Promise<{ account: string; password: string }[]> }

/** The names of every keychain entry this test's service holds. */
async function keychainEntries(): Promise<string[]> {
  return (await keytar.findCredentials(KEYCHAIN_SERVICE)).map((entry) => entry.account).sort()
}

describe.skipIf(missing)('testing a connection form without saving it, and duplicating a connection', () => {
  const secret = `check-${randomBytes(16).toString('hex')}`
  const wrong = `wrong-${randomBytes(16).toString('hex')}`
  let service: RunningService
  let capture: TestServer
  let dataDir: string
  let core: AppCore
  const replies: unknown[] = []

  const send = async <T>(channel: string, request: unknown): Promise<T> => {
    const reply = await core.dispatch(channel, request)
    replies.push(reply)
    if (!reply.ok) throw new Error(`${channel}: ${reply.error.code}: ${reply.error.message}`)
    return reply.data as T
  }
  const form = (extra: Record<string, unknown> = {}) => ({
    name: 'Checked',
    authUrl: service.authUrl,
    queryUrl: service.queryUrl,
    workspace: 'world',
    api: 'places',
    clientId: 'check-client',
    ...extra,
  })
  /** The profiles as the list shows them, without the token counts (a test's token request counts against the account: the server counts it). */
  const profiles = async () =>
    (await send<ConnectionView[]>('connections:list', {})).map(({ tokenRequestsLastHour: _count, ...profile }) => profile)
  const connectionsFile = () => (existsSync(join(dataDir, 'connections.json')) ? readFileSync(join(dataDir, 'connections.json'), 'utf8') : null)

  beforeAll(async () => {
    service = await startService({
      port: 0,
      log: () => undefined,
      quota: 100,
      accounts: [{ clientId: 'check-client', clientSecret: secret, roles: ['API Usage'], workspaces: ['world'] }],
    })
    // Asks for a token (as a protected API does), then fails whatever it is sent.
    capture = await startServer((req, res) => {
      res.writeHead(req.headers.authorization === undefined && req.url?.startsWith('/query/') ? 401 : 500)
      res.end()
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-check-'))
    // The service is this core's demo: a built-in connection whose secret is in memory, as in the app.
    core = await openCore(dataDir, { demo: service, replyCache: { ttlMs: 0 } })
  })
  afterAll(async () => {
    await core?.close()
    await Promise.all([service?.close(), capture?.close()])
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('a wrong secret typed into a new form: the 401 is reported, and nothing is saved or kept', async () => {
    const listed = await profiles()
    const entries = await keychainEntries()
    const result = await send<ConnectionCheckResult>('connections:check', { connection: form(), secret: wrong })
    expect(result.ok).toBe(false)
    expect(result.checks).toEqual([expect.objectContaining({ step: 'access', ok: true }), expect.objectContaining({ step: 'token', ok: false, status: 401 })])
    expect(result.checks[1]!.message).toContain('Check the client ID and secret')
    expect(await profiles()).toEqual(listed)
    expect(connectionsFile()).toBeNull()
    expect(await keychainEntries()).toEqual(entries)

    // The right one works, and still leaves nothing behind: no profile, no secret, no token.
    const right = await send<ConnectionCheckResult>('connections:check', { connection: form(), secret })
    expect(right.ok).toBe(true)
    expect(right.checks.map((check) => check.step)).toEqual(['access', 'token', 'description', 'status'])
    expect(right.checks[2]!.message).toContain('API "places" answered')
    expect(await profiles()).toEqual(listed)
    expect(await keychainEntries()).toEqual(entries)
  })

  it('checks what a form names: bad fields are named as a save names them, and a secret needs a client ID', async () => {
    const bad = await failure(core, 'connections:check', { connection: form({ authUrl: 'ftp://x', version: 'v2' }), secret })
    expect(bad.code).toBe('validation')
    expect(bad.message).toContain('Auth URL:')
    expect(bad.message).toContain('Version: a number')
    const noClient = await failure(core, 'connections:check', { connection: form({ clientId: '' }), secret })
    expect(noClient.message).toContain('a client secret needs the client ID')
    expect((await failure(core, 'connections:check', { connection: form({ id: 'no-such-profile' }) })).code).toBe('not_found')
  })

  it('a saved profile: its stored secret serves the test, its cached token and its secret stay as they were', async () => {
    const saved = await send<ConnectionView>('connections:save', form({ name: 'Saved' }))
    await send('secrets:set', { connectionId: saved.id, secret })
    const answered = await send<QueryReply>('query:run', { connectionId: saved.id, requestId: 'warm', request: search('oslo') })
    expect(answered.status).toBe(200)
    const cached = await storedToken(saved.id)
    expect(cached).toBeTruthy()
    const before = { file: connectionsFile(), entries: await keychainEntries() }
    // The next token the service issues is a new one: a test that stored its token would replace the cached one.
    service.revokeTokens()

    const refused = await send<ConnectionCheckResult>('connections:check', { connection: form({ id: saved.id, name: 'Saved' }), secret: wrong })
    expect(refused.checks[1]).toMatchObject({ step: 'token', ok: false, status: 401 })
    const works = await send<ConnectionCheckResult>('connections:check', { connection: form({ id: saved.id, name: 'Renamed, not saved', api: 'public' }) })
    expect(works.ok).toBe(true)
    expect(works.checks[2]!.message).toContain('API "public" answered')

    expect(await storedToken(saved.id)).toBe(cached)
    expect(await storedSecret(saved.id)).toEqual({ origin: new URL(service.authUrl).origin, secret })
    expect(connectionsFile()).toBe(before.file)
    expect(await keychainEntries()).toEqual(before.entries)
    const view = (await send<ConnectionView[]>('connections:list', {})).find((connection) => connection.id === saved.id)
    expect(view).toMatchObject({ name: 'Saved', api: 'places', hasSecret: true })
  })

  it('the stored secret is not sent to an auth URL the form moved elsewhere', async () => {
    const saved = await send<ConnectionView>('connections:save', form({ name: 'Bound' }))
    await send('secrets:set', { connectionId: saved.id, secret })
    const moved = await send<ConnectionCheckResult>('connections:check', { connection: form({ id: saved.id, name: 'Bound', authUrl: capture.origin }) })
    expect(moved.checks[1]).toMatchObject({ step: 'token', ok: false })
    expect(moved.checks[1]!.message).toBe('The client secret must be entered again for the new auth URL.')
    expect(capture.seen).toEqual([])
  })

  it('a form that moves the query URL elsewhere gets a token of its own, never the one the saved profile is using', async () => {
    const saved = await send<ConnectionView>('connections:save', form({ name: 'Live' }))
    await send('secrets:set', { connectionId: saved.id, secret })
    expect((await send<QueryReply>('query:run', { connectionId: saved.id, requestId: 'live', request: search('rome') })).status).toBe(200)
    const live = await storedToken(saved.id)
    expect(live).toBeTruthy()
    const from = capture.seen.length

    await send<ConnectionCheckResult>('connections:check', { connection: form({ id: saved.id, name: 'Live', queryUrl: `${capture.origin}/query` }) })
    // The probe goes without a token; the API root and the status route get the test's own.
    const sent = capture.seen.slice(from).map((seen) => seen.headers.authorization)
    expect(sent).toHaveLength(3)
    expect(sent[0]).toBeUndefined()
    expect(sent[1]).toMatch(/^Bearer \S+$/)
    expect(sent[1]).not.toBe(`Bearer ${live}`)
    expect(sent[2]).toBe(sent[1])

    // The profile itself goes on working: its next query renews the token the test's replaced.
    expect((await send<QueryReply>('query:run', { connectionId: saved.id, requestId: 'after', request: search('rome') })).status).toBe(200)
  })

  it('duplicates the demo: a saved, editable copy with the demo secret copied into the keychain, that queries another config', async () => {
    const copy = await send<ConnectionView>('connections:duplicate', { connectionId: 'demo' })
    expect(copy).toMatchObject({ name: 'Demo (copy)', builtIn: false, hasSecret: true, secretStore: 'os', clientId: 'check-client', authUrl: service.authUrl })
    expect(copy.id).not.toBe('demo')
    expect(await storedSecret(copy.id)).toEqual({ origin: new URL(service.authUrl).origin, secret })

    const edited = await send<ConnectionView>('connections:save', { ...form({ name: 'Demo, production', config: 'production' }), id: copy.id })
    expect(edited).toMatchObject({ id: copy.id, config: 'production', hasSecret: true })
    const request = search('paris', { count: 5, config: 'production' })
    const reply = await send<QueryReply>('query:run', { connectionId: copy.id, requestId: 'production', request })
    expect(reply.status).toBe(200)
    expect(reply.url).toContain('config=production')

    // A second copy gets a name of its own; deleting a copy leaves the demo and the other copy working.
    const second = await send<ConnectionView>('connections:duplicate', { connectionId: 'demo' })
    expect(second.name).toBe('Demo (copy)')
    const third = await send<ConnectionView>('connections:duplicate', { connectionId: 'demo' })
    expect(third.name).toBe('Demo (copy 2)')
    await send('connections:delete', { id: second.id })
    expect((await storedSecret(third.id))?.secret).toBe(secret)
    expect((await send<QueryReply>('query:run', { connectionId: 'demo', requestId: 'demo', request: search('rome') })).status).toBe(200)
  })

  it('duplicates a saved profile with its keychain entry, which outlives the original', async () => {
    const original = await send<ConnectionView>('connections:save', form({ name: 'Original', config: 'production' }))
    await send('secrets:set', { connectionId: original.id, secret })
    const copy = await send<ConnectionView>('connections:duplicate', { connectionId: original.id })
    expect(copy).toMatchObject({ name: 'Original (copy)', config: 'production', hasSecret: true })
    await send('connections:delete', { id: original.id })
    expect(await storedSecret(copy.id)).toEqual({ origin: new URL(service.authUrl).origin, secret })
    const works = await send<ConnectionCheckResult>('connections:check', { connection: { ...form({ name: copy.name }), id: copy.id } })
    expect(works.ok).toBe(true)
    expect((await failure(core, 'connections:duplicate', { connectionId: original.id })).code).toBe('not_found')
  })

  it('no reply, file or log line ever held a secret, typed or stored', async () => {
    expect(replies.length).toBeGreaterThan(20)
    for (const reply of replies) {
      const text = JSON.stringify(reply)
      expect(text).not.toContain(secret)
      expect(text).not.toContain(wrong)
    }
    for (const file of filesUnder(dataDir)) {
      const text = readFileSync(file, 'latin1')
      expect(text.includes(secret), `${file} holds the secret`).toBe(false)
      expect(text.includes(wrong), `${file} holds the typed secret`).toBe(false)
    }
  })
})
