import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import { HistoryStore, OLD_HISTORY_FILE } from '../../src/main/history/history-store'
import { DATA_STORE_FILE } from '../../src/main/storage/data-store/data-store'
import type { ConnectionView, HistoryEntry } from '../../src/shared/ipc/contract'
import { call, failure, keychainMissing, openCore, search, storedToken } from './support'

const missing = await keychainMissing()

const entry = (n: number): HistoryEntry => ({
  id: `e${n}`,
  at: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  connectionId: 'c',
  connectionName: `Conn ${n}`,
  api: 'places',
  config: 'default',
  url: `http://127.0.0.1:1/q/world/places/search/q${n}`,
  responseType: 'results',
  status: 200,
  error: null,
  total: null,
  itemCount: 1,
  pages: 1,
  durationMs: 3,
  request: search(`q${n}`),
})

/** What the data folder's database holds, read as a restart would: through a store of its own, closed after. */
async function stored(dir: string, options: { keep?: number } = {}): Promise<HistoryEntry[]> {
  const store = new HistoryStore(dir, options)
  try {
    return await store.list()
  } finally {
    await store.close()
  }
}

/** The database's bytes on disk, its write-ahead log included. */
const onDisk = (dir: string) =>
  [DATA_STORE_FILE, `${DATA_STORE_FILE}-wal`].map((name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'latin1') : '')).join('')

describe.skipIf(missing)('run history', () => {
  const secret = `history-${randomBytes(16).toString('hex')}`
  let service: RunningService
  let dataDir: string
  let core: AppCore
  let id: string

  beforeAll(async () => {
    service = await startService({
      port: 0,
      log: () => undefined,
      accounts: [{ clientId: 'history-client', clientSecret: secret, roles: ['API Usage'], workspaces: ['world'] }],
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-history-'))
    core = await openCore(dataDir, { echoLog: false })
    const saved = await call<ConnectionView>(core, 'connections:save', {
      name: 'Atlas',
      authUrl: service.authUrl,
      queryUrl: service.queryUrl,
      workspace: 'world',
      api: 'places',
      clientId: 'history-client',
    })
    id = saved.id
    await call(core, 'secrets:set', { connectionId: id, secret })
  })
  afterAll(async () => {
    await core?.close()
    await service?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('records each run, newest first, with what was sent and how it went, and never the secret or token', async () => {
    const reply = await call<{ url: string }>(core, 'query:run', { connectionId: id, requestId: 'r1', request: search('berlin', { count: 5 }) })
    await call(core, 'query:run', { connectionId: id, requestId: 'r2', request: { ...search('oslo'), responseType: 'statistics', options: {} } })
    const notFound = await failure(core, 'query:run', { connectionId: id, requestId: 'r3', request: { ...search('oslo'), steps: [{ endpoint: 'nope', parameters: {} }] } })
    const invalid = await failure(core, 'query:run', { connectionId: id, requestId: 'r4', request: search('oslo', { count: 500 }) })
    // Asked alongside a run (its statistics, facet counts): answered, but not a run of the user's.
    await call(core, 'query:run', { connectionId: id, requestId: 'r5', request: search('rome'), keepOutOfHistory: true })

    const entries = await call<HistoryEntry[]>(core, 'history:list', {})
    expect(entries.map((e) => e.request.steps)).toEqual([
      search('oslo').steps,
      [{ endpoint: 'nope', parameters: {} }],
      search('oslo').steps,
      search('berlin').steps,
    ])
    const [bad, missingEndpoint, stats, first] = entries as [HistoryEntry, HistoryEntry, HistoryEntry, HistoryEntry]
    expect(first).toMatchObject({ connectionId: id, connectionName: 'Atlas', api: 'places', config: 'default', url: reply.url, responseType: 'results', status: 200, error: null, total: null, itemCount: 5 })
    expect(first.request).toEqual(search('berlin', { count: 5 }))
    expect(Date.parse(first.at)).toBeGreaterThan(Date.now() - 60_000)
    expect(first.durationMs).toBeGreaterThanOrEqual(0)
    expect(stats).toMatchObject({ responseType: 'statistics', status: 200, itemCount: null })
    expect(stats.total).toBeGreaterThan(0)
    expect(missingEndpoint.error).toEqual({ code: notFound.code, message: notFound.message })
    expect(missingEndpoint.url).toContain('/nope')
    expect(bad).toMatchObject({ status: null, error: { code: 'validation', message: invalid.message }, total: null, itemCount: null })
    expect(bad.url).toContain('count=500')

    const token = await storedToken(id)
    expect(token).toBeTruthy()
    const file = onDisk(dataDir)
    expect(await stored(dataDir)).toHaveLength(4)
    expect(file).not.toContain(secret)
    expect(file).not.toContain(token!)
    for (const e of entries) expect(e.url).not.toMatch(/token|bearer|access_token/i)
  })

  it('searches connection, API, config, URL and status in any case, and honours the limit', async () => {
    expect((await call<HistoryEntry[]>(core, 'history:list', { text: 'BERLIN' })).map((e) => e.request.steps[0])).toEqual([search('berlin').steps[0]])
    expect(await call<HistoryEntry[]>(core, 'history:list', { text: 'atlas' })).toHaveLength(4)
    expect(await call<HistoryEntry[]>(core, 'history:list', { text: 'validation' })).toHaveLength(1)
    expect(await call<HistoryEntry[]>(core, 'history:list', { text: '200' })).toHaveLength(2)
    expect(await call<HistoryEntry[]>(core, 'history:list', { text: 'no such thing' })).toEqual([])
    expect(await call<HistoryEntry[]>(core, 'history:list', { limit: 1 })).toHaveLength(1)
  })

  it('clears, and the file stays empty across a restart', async () => {
    expect(await call(core, 'history:clear', {})).toEqual({ cleared: 4 })
    expect(await call(core, 'history:list', {})).toEqual([])
    expect(await stored(dataDir)).toEqual([])
  })
})

describe('history file', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-history-file-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps the newest 1,000, across restarts', async () => {
    const store = new HistoryStore(dir)
    for (let n = 0; n < 1_050; n++) await store.add(entry(n))
    const listed = await store.list()
    await store.close()
    expect(listed).toHaveLength(1_000)
    expect(listed[0]!.id).toBe('e1049')
    expect(listed.at(-1)!.id).toBe('e50')

    // A restart reads the database back; further runs still keep the newest 1,000.
    const again = new HistoryStore(dir)
    expect((await again.list()).map((e) => e.id)).toEqual(listed.map((e) => e.id))
    for (let n = 1_050; n < 1_201; n++) await again.add(entry(n))
    await again.close()
    const after = await stored(dir)
    expect(after).toHaveLength(1_000)
    expect(after[0]!.id).toBe('e1200')
    expect(after.at(-1)!.id).toBe('e201')
  })

  it('imports the old history.jsonl skipping a corrupt line and a half-written last line, and adds runs after them', async () => {
    const old = mkdtempSync(join(tmpdir(), 'qe-history-old-'))
    try {
      const path = join(old, OLD_HISTORY_FILE)
      writeFileSync(path, `${JSON.stringify(entry(1))}\nnot json at all\n{"id":"incomplete"}\n${JSON.stringify(entry(2))}\n{"id":"e3","at":"20`)
      const store = new HistoryStore(old)
      expect((await store.list()).map((e) => e.id)).toEqual(['e2', 'e1'])
      await store.add(entry(4))
      await store.close()
      expect((await stored(old)).map((e) => e.id)).toEqual(['e4', 'e2', 'e1'])
    } finally {
      rmSync(old, { recursive: true, force: true })
    }
  })
})

describe('a damaged History database', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-history-damaged-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('is said in the log and in the window, kept aside as it was, and History works on a new one', async () => {
    const damaged = Buffer.from('not an SQLite database: a disk error wrote over it\n'.repeat(200))
    writeFileSync(join(dir, DATA_STORE_FILE), damaged)
    const core = await openCore(dir, { echoLog: false })
    try {
      expect(await call(core, 'history:list', {})).toEqual([])
      const said = `The data folder's database (${DATA_STORE_FILE}) could not be read (file is not a database): it was set aside as ${DATA_STORE_FILE}.damaged, kept for you, and a new one was made.`
      expect((await call<{ notices: string[] }>(core, 'app:info', {})).notices.some((notice) => notice.startsWith(said))).toBe(true)
    } finally {
      await core.close()
    }
    const logged = readFileSync(join(dir, 'logs', 'main.log'), 'utf8')
    expect(logged).toContain("The data folder's database (data.db) could not be read (file is not a database): it was set aside as data.db.damaged")
    expect(readFileSync(join(dir, `${DATA_STORE_FILE}.damaged`))).toEqual(damaged)
  })
})
