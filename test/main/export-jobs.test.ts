import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TokenManager } from '../../src/main/auth/token-manager'
import { ConnectionRegistry } from '../../src/main/connections/connection-registry'
import { ConnectionStore } from '../../src/main/connections/connection-store'
import { memorySecretStore } from '../../src/main/credentials/secret-store'
import { ExportJobs, MAX_RUNNING_EXPORTS } from '../../src/main/export/export-jobs'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { DOWNLOAD_LIFETIME_MS, DOWNLOAD_PATH, DownloadTickets } from '../../src/main/host/download-tickets'
import { HttpClient } from '../../src/main/http/http-client'
import { createLogger } from '../../src/main/logging/logger'
import type { ExportStatus } from '../../src/shared/ipc/contract'
import { startCsvPages, type CsvPages } from '../fixtures/csv-pages'
import { failureOf } from '../fixtures/failure-of'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search, untilEnded } from './support'

/**
 * The exports of a run, over a real connection registry (its file on disk)
 * and real HTTP pages on 127.0.0.1: in Electron the file goes where the
 * save dialog says, in the browser host into the exports folder and out as
 * a one-time download; at most two run at once; what cannot be exported is
 * refused before any dialog.
 */

describe('export jobs', () => {
  const tempDir = useTempDirs('qe-export-jobs')
  let pages: CsvPages
  const http = new HttpClient()
  const opened: ExportJobs[] = []
  beforeAll(async () => {
    pages = await startCsvPages()
  })
  afterAll(async () => {
    await Promise.all(opened.map((jobs) => jobs.close()))
    await pages.close()
    await http.close()
  })

  async function open(options: { dialogs?: FileDialogs; downloads?: DownloadTickets; dataDir?: string } = {}) {
    const dataDir = options.dataDir ?? tempDir()
    const store = new ConnectionStore(dataDir)
    await store.load()
    const registry = new ConnectionRegistry(store, memorySecretStore('test memory'), new TokenManager(http), [], () => undefined)
    const { id } = await registry.save({ name: 'Pages', authUrl: '', queryUrl: `${pages.server.origin}/query`, workspace: 'world', api: 'places', clientId: '' })
    const runner = pages.runner
    const exports = new ExportJobs({ dataDir, dialogs: options.dialogs ?? null, registry, runner, log: createLogger(dataDir), downloads: options.downloads ?? null })
    opened.push(exports)
    return { exports, connectionId: id, dataDir }
  }

  const ended = (exports: ExportJobs, runId: string): Promise<ExportStatus> => untilEnded(async () => exports.status(runId))

  it('Electron: the save dialog is asked with the suggested name and the format, and the file goes where it says', async () => {
    const asked: Parameters<FileDialogs['chooseSave']>[0][] = []
    const chosen = join(tempDir(), 'chosen name.csv')
    let answer: string | null = chosen
    const { exports, connectionId } = await open({ dialogs: { chooseOpen: async () => null, chooseSave: async (options) => (asked.push(options), answer) } })
    const started = await exports.start({ connectionId, request: search('towns'), format: 'csv', rows: 5, savedQuery: 'Big towns' })
    expect(started).toMatchObject({ state: 'running', fileName: 'chosen name.csv', rowsWanted: 5 })
    expect(asked).toEqual([{ title: 'Export results', defaultName: expect.stringMatching(/^Big towns.*\.csv$/), filters: [{ name: expect.any(String), extensions: ['csv'] }] }])
    expect(await ended(exports, started!.runId)).toMatchObject({ state: 'done', rows: 5, downloadUrl: null })
    expect(readFileSync(chosen, 'utf8')).toContain('5,0.5,id5,Town 5')
    // The dialog cancelled: nothing starts, nothing is written.
    answer = null
    expect(await exports.start({ connectionId, request: search('towns'), format: 'csv', rows: 5 })).toBeNull()
  })

  it('browser host: the file is written in the exports folder and handed out as a one-time download', async () => {
    const downloads = new DownloadTickets()
    const { exports, connectionId, dataDir } = await open({ downloads })
    const started = await exports.start({ connectionId, request: search('towns'), format: 'csv', rows: 3 })
    const status = await ended(exports, started!.runId)
    expect(status.state).toBe('done')
    expect(status.downloadUrl).toMatch(new RegExp(`^${DOWNLOAD_PATH}[\\w-]{43}$`))
    const file = downloads.take(status.downloadUrl!.slice(DOWNLOAD_PATH.length))
    expect(file).toMatchObject({ path: join(dataDir, 'exports', `${started!.runId}.csv`), contentType: expect.stringContaining('text/csv') })
    expect(readFileSync(file!.path, 'utf8').trim().split('\r\n')).toHaveLength(4)
    await downloads.close()
  })

  it('refuses a request that is not results, or not valid, before any dialog', async () => {
    let dialogs = 0
    const { exports, connectionId } = await open({ dialogs: { chooseOpen: async () => null, chooseSave: async () => (dialogs++, null) } })
    const statistics = await failureOf(exports.start({ connectionId, request: { ...search('towns'), responseType: 'statistics' }, format: 'csv', rows: 5 }))
    expect(statistics).toMatchObject({ code: 'validation', message: 'Export writes rows: run the chain as results first (this request asks for statistics).' })
    const invalid = await failureOf(exports.start({ connectionId, request: { ...search('towns'), workspace: '' }, format: 'csv', rows: 5 }))
    expect(invalid.code).toBe('validation')
    expect(invalid.extra.problems?.length).toBeGreaterThan(0)
    expect(dialogs).toBe(0)
  })

  it(`runs ${MAX_RUNNING_EXPORTS} at once at most, refusing one more with the reason`, async () => {
    const { exports, connectionId } = await open()
    const held = pages.held.length
    const running = [
      await exports.start({ connectionId, request: search('hold'), format: 'csv', rows: 250 }),
      await exports.start({ connectionId, request: search('hold'), format: 'csv', rows: 250 }),
    ]
    const third = await failureOf(exports.start({ connectionId, request: search('towns'), format: 'csv', rows: 5 }))
    expect(third.message).toBe('2 exports are running already: wait for one to finish, or cancel one.')
    // Each waits on its second page; cancelled, they leave a place.
    while (pages.held.length < held + 2) await new Promise((resolve) => setTimeout(resolve, 10))
    for (const status of running) expect(await exports.cancel(status!.runId)).toMatchObject({ state: 'cancelled', rows: 100 })
    const after = await exports.start({ connectionId, request: search('towns'), format: 'csv', rows: 5 })
    expect(await ended(exports, after!.runId)).toMatchObject({ state: 'done', rows: 5 })
  })

  it("removes what an earlier run left in the exports folder once older than a download's life, and keeps the rest", async () => {
    const dataDir = tempDir()
    mkdirSync(join(dataDir, 'exports', 'spool'), { recursive: true })
    const old = (Date.now() - DOWNLOAD_LIFETIME_MS - 60_000) / 1000
    for (const name of ['exports/old.csv', 'exports/spool/old.spool', 'exports/fresh.csv']) writeFileSync(join(dataDir, name), 'x')
    utimesSync(join(dataDir, 'exports/old.csv'), old, old)
    utimesSync(join(dataDir, 'exports/spool/old.spool'), old, old)
    const { exports, connectionId } = await open({ dataDir })
    // A start waits for the folders to be ready.
    const started = await exports.start({ connectionId, request: search('towns'), format: 'csv', rows: 1 })
    await ended(exports, started!.runId)
    expect([existsSync(join(dataDir, 'exports/old.csv')), existsSync(join(dataDir, 'exports/spool/old.spool')), existsSync(join(dataDir, 'exports/fresh.csv'))]).toEqual([false, false, true])
    expect(statSync(join(dataDir, 'exports')).isDirectory()).toBe(true)
  })
})
