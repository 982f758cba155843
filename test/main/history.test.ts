import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import { DATA_STORE_FILE } from '../../src/main/storage/data-store/data-store'
import type { ConnectionView, HistoryEntry } from '../../src/shared/ipc/contract'
import { call, failure, keychainMissing, openCore, search, storedToken } from './support'
import { storedHistory } from '../fixtures/history-entries'
import { startWorldService } from '../fixtures/world-service'

const missing = await keychainMissing()

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
    service = await startWorldService('history-client', secret)
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
    expect(await storedHistory(dataDir)).toHaveLength(4)
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
    expect(await storedHistory(dataDir)).toEqual([])
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
