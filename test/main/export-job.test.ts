import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExportJob, type ExportJobSpec, type ExportProgress } from '../../src/main/export/export-job'
import { WriterThreads } from '../../src/main/export/writer-thread'
import { BackgroundJobs } from '../../src/main/jobs/background-jobs'
import type { ExportFormat } from '../../src/shared/ipc/contract'
import { startCsvPages, type CsvPages } from '../fixtures/csv-pages'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search, untilEnded } from './support'

/**
 * One export over real HTTP on 127.0.0.1: pages of up to 100 rows from the
 * request's offset until the rows asked are written or the results end;
 * the file appears under its name only when complete, and a failure or a
 * cancel leaves no file, partial or whole.
 */

describe('export job', () => {
  const tempDir = useTempDirs('qe-export-job')
  let pages: CsvPages
  const threads = new WriterThreads()
  const log = { info: () => undefined, error: () => undefined, scrub: (text: string) => text }
  const jobs = new BackgroundJobs<ExportProgress, ExportProgress & { state: string; message: string | null }>(
    { noun: 'export', maxRunning: 4, keptMs: 60_000, maxFinishedKept: 10, status: (job) => ({ ...job.progress, state: job.state, message: job.message }) },
    log,
  )
  beforeAll(async () => {
    pages = await startCsvPages()
  })
  afterAll(async () => {
    await jobs.close()
    await threads.close()
    await pages.close()
  })

  let ids = 0
  function exportJob(text: string, rows: number, { offset, format = 'csv', completed = async () => null }: { offset?: number; format?: ExportFormat; completed?: () => Promise<string | null> } = {}) {
    const dir = tempDir()
    const id = `export-${ids++}`
    const spec: ExportJobSpec = {
      id,
      format,
      request: search(text, offset ? { count: 10, offset } : { count: 10 }),
      rows,
      columns: null,
      target: pages.target,
      path: join(dir, 'out.csv'),
      fileName: 'out.csv',
      tempPath: join(dir, '.out.csv.part'),
      spoolPath: join(dir, 'out.spool'),
    }
    const job = new ExportJob(spec, pages.runner, threads, completed, (line) => line.replace(/rebuilt/g, '[scrubbed]'))
    const started = jobs.start(id, job.progress(), (running) => job.run(running))
    return { dir, spec, started, ended: () => untilEnded(async () => jobs.status(id)) }
  }

  /** Waits until the server holds a page back, looking as the window polls (nothing is timed: the test's timeout is the bound). */
  async function untilHeld(): Promise<void> {
    while (pages.held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
  }

  const ranks = (path: string) => readFileSync(path, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n').slice(1).map((line) => Number(line.split(',')[0]))

  it('writes 250 rows from three pages into one file, under its name only once complete, and says so', async () => {
    let seenAtCompletion: string[] = []
    const job = exportJob('towns', 250, { completed: async () => ((seenAtCompletion = readdirSync(job.dir)), 'ticket') })
    expect(job.started).toMatchObject({ fileName: 'out.csv', rowsWanted: 250, rows: 0, bytes: 0, downloadUrl: null })
    const status = await job.ended()
    expect(status).toMatchObject({ state: 'done', rows: 250, downloadUrl: 'ticket', bytes: readFileSync(job.spec.path).length })
    expect(ranks(job.spec.path)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1))
    // The pages asked: 100, 100, then the 50 left.
    const asked = pages.server.seen.filter((seen) => seen.url.includes('/query/towns/')).map((seen) => new URL(seen.url, 'http://x').searchParams)
    expect(asked.map((params) => [params.get('offset'), params.get('count')])).toEqual([[null, '100'], ['100', '100'], ['200', '50']])
    // Under its name, the temporary file gone, before it was announced; the spool removed after.
    expect(seenAtCompletion.filter((name) => name !== 'out.spool')).toEqual(['out.csv'])
    expect(readdirSync(job.dir)).toEqual(['out.csv'])
  })

  it("starts at the request's offset, and stops where the results end", async () => {
    const job = exportJob('short', 500, { offset: 20 })
    expect(await job.ended()).toMatchObject({ state: 'done', rows: 110 })
    expect(ranks(job.spec.path)).toEqual(Array.from({ length: 110 }, (_, i) => i + 21))
  })

  it("fails with the server's message (scrubbed) and leaves no file", async () => {
    const job = exportJob('fail', 250)
    const status = await job.ended()
    expect(status.state).toBe('failed')
    expect(status.message).toContain('the index is being [scrubbed]')
    expect(readdirSync(job.dir)).toEqual([])
  })

  it('a cancel stops the page in flight and leaves no file, saying how far it got', async () => {
    const job = exportJob('hold', 250)
    // The first page is written, the second held by the server.
    await untilHeld()
    const status = await jobs.cancel(job.spec.id)
    expect(status).toMatchObject({ state: 'cancelled', rows: 100, message: 'Export cancelled after 100 rows; no file was written.' })
    expect(existsSync(job.spec.path)).toBe(false)
    expect(readdirSync(job.dir)).toEqual([])
  })
})
