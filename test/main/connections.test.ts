import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { AppInfo, ConnectionView } from '../../src/shared/ipc/contract'
import { call, failure, KEYCHAIN_SERVICE, keychainMissing, openCore, storedSecret } from './support'

/** Connection profiles on disk and in the keychain; and a keychain that refuses to store. */

const missing = await keychainMissing()
const keytar = createRequire(import.meta.url)('keytar') as { getPassword(service: string, account: string): Promise<string | null> }

const PROFILE = { name: 'Prod', authUrl: 'https://auth.example.com', queryUrl: 'https://query.example.com', workspace: 'world', api: 'places', clientId: 'c1' }

describe.skipIf(missing)('connection profiles', () => {
  const dirs: string[] = []
  const cores: AppCore[] = []
  const open = async (dir?: string) => {
    const dataDir = dir ?? mkdtempSync(join(tmpdir(), 'qe-conn-'))
    if (!dir) dirs.push(dataDir)
    const core = await openCore(dataDir)
    cores.push(core)
    return { core, dataDir }
  }
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close()
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('saves, edits and reloads profiles from one JSON file written atomically, without secrets', async () => {
    const { core, dataDir } = await open()
    const view = await call<ConnectionView>(core, 'connections:save', { ...PROFILE, version: ' 4 ', config: '' })
    expect(view).toMatchObject({ name: 'Prod', version: '4', builtIn: false, hasSecret: false, secretStore: 'os', tokenRequestsLastHour: 0 })
    expect(view).not.toHaveProperty('config')
    await call(core, 'secrets:set', { connectionId: view.id, secret: 'the-prod-secret' })
    await call(core, 'connections:save', { ...PROFILE, id: view.id, name: 'Production' })
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([])
    const file = readFileSync(join(dataDir, 'connections.json'), 'utf8')
    expect(JSON.parse(file)).toMatchObject({ version: 1, connections: [{ id: view.id, name: 'Production' }] })
    expect(file).not.toContain('the-prod-secret')

    const again = await open(dataDir)
    const listed = await call<ConnectionView[]>(again.core, 'connections:list', {})
    expect(listed).toEqual([expect.objectContaining({ id: view.id, name: 'Production', hasSecret: true })])
  })

  it('remembers the connection chosen last, across a restart, and forgets it when it is deleted', async () => {
    const { core, dataDir } = await open()
    expect((await call<AppInfo>(core, 'app:info', {})).lastConnectionId).toBeNull()
    const view = await call<ConnectionView>(core, 'connections:save', PROFILE)
    await call(core, 'connections:use', { connectionId: view.id })
    expect((await failure(core, 'connections:use', { connectionId: 'no-such-connection' })).code).toBe('not_found')

    const again = await open(dataDir)
    expect((await call<AppInfo>(again.core, 'app:info', {})).lastConnectionId).toBe(view.id)
    await call(again.core, 'connections:delete', { id: view.id })
    expect((await call<AppInfo>(again.core, 'app:info', {})).lastConnectionId).toBeNull()
    expect(JSON.parse(readFileSync(join(dataDir, 'connections.json'), 'utf8'))).not.toHaveProperty('lastUsed')
  })

  it('names every bad field of a profile at once', async () => {
    const { core } = await open()
    const error = await failure(core, 'connections:save', { ...PROFILE, name: '  ', authUrl: 'ftp://x', queryUrl: 'nope', version: 'v2' })
    expect(error.code).toBe('validation')
    expect(error.message).toContain('Name: give the connection a name')
    expect(error.message).toContain('Auth URL: The URL must start with http:// or https://')
    expect(error.message).toContain('Query URL: "nope" is not a valid URL')
    expect(error.message).toContain('Version: a number such as 4')
    const credentials = await failure(core, 'connections:save', { ...PROFILE, queryUrl: 'https://user:pw@query.example.com' })
    expect(credentials.message).toContain('must not carry a user name or password')
    expect((await failure(core, 'connections:save', { ...PROFILE, id: 'nope' })).code).toBe('not_found')
  })

  it('deleting a profile deletes its keychain entries', async () => {
    const { core } = await open()
    const view = await call<ConnectionView>(core, 'connections:save', PROFILE)
    await call(core, 'secrets:set', { connectionId: view.id, secret: 'to-be-deleted' })
    expect((await storedSecret(view.id))?.secret).toBe('to-be-deleted')
    expect(await call(core, 'connections:delete', { id: view.id })).toEqual({ deleted: true })
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, `secret:${view.id}`)).toBeNull()
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, `token:${view.id}`)).toBeNull()
    expect(await call(core, 'connections:list', {})).toEqual([])
    expect(await call(core, 'connections:delete', { id: view.id })).toEqual({ deleted: false })
  })

  it('secrets can be set and cleared, never read back', async () => {
    const { core } = await open()
    const view = await call<ConnectionView>(core, 'connections:save', PROFILE)
    expect(await call(core, 'secrets:set', { connectionId: view.id, secret: 'abc-123' })).toEqual({ stored: 'os' })
    const listed = await call<ConnectionView[]>(core, 'connections:list', {})
    expect(JSON.stringify(listed)).not.toContain('abc-123')
    expect(listed[0]!.hasSecret).toBe(true)
    expect(await call(core, 'secrets:clear', { connectionId: view.id })).toEqual({ cleared: true })
    expect((await call<ConnectionView[]>(core, 'connections:list', {}))[0]!.hasSecret).toBe(false)
  })

  it('keeps a corrupt file aside as .bad, tells the user, and loses nothing else', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qe-conn-'))
    dirs.push(dataDir)
    const first = await open(dataDir)
    const view = await call<ConnectionView>(first.core, 'connections:save', PROFILE)
    await call(first.core, 'secrets:set', { connectionId: view.id, secret: 'survives' })
    await first.core.close()
    writeFileSync(join(dataDir, 'connections.json'), '{"version": 1, "connections": [{"name": 3}')
    const second = await open(dataDir)
    const info = await call<AppInfo>(second.core, 'app:info', {})
    expect(info.notices[0]).toMatch(/could not be read and was kept as .*connections\.json\.bad/)
    expect(readFileSync(join(dataDir, 'connections.json.bad'), 'utf8')).toContain('"name": 3')
    expect(existsSync(join(dataDir, 'logs', 'main.log'))).toBe(true)
    // The keychain entry of the profile is still there: nothing else was lost.
    expect(await storedSecret(view.id)).toEqual({ origin: 'https://auth.example.com', secret: 'survives' })
    await call(second.core, 'connections:save', PROFILE)
    expect(JSON.parse(readFileSync(join(dataDir, 'connections.json'), 'utf8')).connections).toHaveLength(1)
  })
})

describe.skipIf(missing || !process.env.DBUS_SESSION_BUS_ADDRESS)('a keychain that reads but refuses to store', () => {
  it('falls back to memory and says so; a refused write says it was the keychain', async () => {
    const keyring = mkdtempSync(join(tmpdir(), 'qe-keyring-'))
    try {
      const script = [
        `echo -n pw | XDG_DATA_HOME=${keyring} gnome-keyring-daemon --unlock --replace --daemonize --components=secrets >/dev/null 2>&1`,
        // One node process (tsx's command line would run the fixture in a child of its own).
        `exec node --import tsx test/main/fixtures/locked-keychain.ts`,
      ].join('; ')
      const { stdout } = await promisify(execFile)('dbus-run-session', ['--', 'bash', '-c', script], { timeout: 110_000 })
      const result = JSON.parse(stdout.trim().split('\n').pop()!)
      expect(result.before).toBe('os')
      expect(result.after.kind).toBe('memory')
      expect(result.after.detail).toContain('refused to store a secret')
      expect(result.after.detail).toContain('in memory for this run only')
      expect(result.setError).toMatchObject({ code: 'keychain' })
      expect(result.setError.message).toMatch(/^The OS keychain refused to store the secret \(.*locked.*\)/)
      expect(result.info).toMatchObject({ ok: true, data: { keychain: { kind: 'memory' } } })
      expect(result.stored).toEqual({ ok: true, data: { stored: 'memory' } })
      expect(result.listed.data[0]).toMatchObject({ hasSecret: true, secretStore: 'memory' })
    } finally {
      rmSync(keyring, { recursive: true, force: true })
    }
  })
})
