import { rename, rm, stat } from 'node:fs/promises'
import { EXPORT_PAGE_SIZE, exportPageRequest } from '../../shared/export/plan'
import type { ExportFormat } from '../../shared/ipc/contract'
import type { BackgroundJob, EndState } from '../jobs/background-jobs'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import type { QueryRunner, QueryTarget } from '../http/query-runner'
import type { FormatWriter } from './writer-interface'
import type { WriterThreads } from './writer-thread'

/** What an export tracks while it runs: its status but for the state and clock. */
export interface ExportProgress {
  fileName: string
  /** Rows asked for; fewer arrive when the results end first. */
  rowsWanted: number
  rows: number
  bytes: number
  /** Browser host, when done: the one-time download address. */
  downloadUrl: string | null
}

export interface ExportJobSpec {
  id: string
  format: ExportFormat
  /** The request whose rows are exported; its `options.offset` is the first row. */
  request: QueryRequest
  rows: number
  /** csv and xlsx: the grid's columns by key, in order; null: every column the pages hold. */
  columns: string[] | null
  target: QueryTarget
  /** The complete file's path, and the name the user sees. */
  path: string
  fileName: string
  /** The file while it is written, in the same folder as `path` so that the final rename is atomic. */
  tempPath: string
  /** Where csv and xlsx keep pages until the header is known. */
  spoolPath: string
}

/**
 * One export: pages of up to 100 rows from the request's offset, asked in
 * sequence (an XLSX export asks the next while the writer reads the last)
 * through the query runner (the connection's token, origin rules and
 * deadline), until `rows` rows are written or the results end. Each
 * page is read and written in a thread of its own (writer-thread.ts). The
 * file appears under its name only when complete; a failure or a cancel
 * removes every partial file.
 */
export class ExportJob {
  constructor(
    readonly spec: ExportJobSpec,
    private readonly runner: QueryRunner,
    /** Where the pages are read and the file written, off the main event loop. */
    private readonly threads: WriterThreads,
    /** Called once the file is complete; the browser host answers with a download address. */
    private readonly completed: (job: ExportJob) => Promise<string | null>,
    private readonly scrub: (text: string) => string,
  ) {}

  /** What the export's status starts from. */
  progress(): ExportProgress {
    return { fileName: this.spec.fileName, rowsWanted: this.spec.rows, rows: 0, bytes: 0, downloadUrl: null }
  }

  /** The job's work (BackgroundJobs): writes the file until done or until the job's signal stops it. */
  async run(job: BackgroundJob<ExportProgress>): Promise<EndState> {
    const { spec } = this
    const signal = job.signal
    const progress = job.progress
    let writer: FormatWriter | null = null
    let renamed = false
    try {
      writer = await this.threads.start(spec.format, { file: spec.tempPath, spool: spec.spoolPath }, spec.rows, spec.columns, signal)
      let offset = spec.request.options.offset ?? 0
      const fetchPage = (at: number, asked: number) => {
        const page = abortable(this.runner.fetchBytes(spec.target, exportPageRequest(spec.request, at, asked, spec.format), { signal }), signal)
        // A page asked ahead may fail after the export stopped for another reason; that failure is not the export's.
        page.catch(() => undefined)
        return page
      }
      let ahead: { at: number; asked: number; page: ReturnType<typeof fetchPage> } | null = null
      while (progress.rows < spec.rows) {
        signal.throwIfAborted()
        const asked = Math.min(EXPORT_PAGE_SIZE, spec.rows - progress.rows)
        const reply = await (ahead?.at === offset && ahead.asked === asked ? ahead.page : fetchPage(offset, asked))
        ahead = null
        // An XLSX page takes longer to read (unzip, its sheet) than to ask, so the next page is asked while this one is
        // read: two pages at most are held, one in the writer thread. CSV and JSON pages, quick to read, are asked in turn.
        const next = Math.min(EXPORT_PAGE_SIZE, spec.rows - progress.rows - asked)
        if (spec.format === 'xlsx' && next > 0) ahead = { at: offset + asked, asked: next, page: fetchPage(offset + asked, next) }
        const kept = await writer.addPage(reply.body, asked)
        progress.rows += kept
        offset += kept
        progress.bytes = writer.bytes
        // Fewer rows than asked: the results end here.
        if (kept < asked) break
      }
      signal.throwIfAborted()
      await writer.finish(signal)
      signal.throwIfAborted()
      await rename(spec.tempPath, spec.path)
      renamed = true
      progress.bytes = (await stat(spec.path)).size
      progress.downloadUrl = await this.completed(this)
      return 'done'
    } catch (error) {
      await writer?.abandon().catch(() => undefined)
      await rm(spec.tempPath, { force: true }).catch(() => undefined)
      if (renamed) await rm(spec.path, { force: true }).catch(() => undefined)
      if (signal.aborted) {
        job.message = `Export cancelled after ${progress.rows.toLocaleString('en-US')} rows; no file was written.`
        return 'cancelled'
      }
      job.message = this.scrub(describe(error))
      return 'failed'
    } finally {
      await rm(spec.spoolPath, { force: true }).catch(() => undefined)
    }
  }
}

/**
 * The page's request stops on the signal, but a token request it waits for
 * first may not: Cancel must not wait for that, so the job stops waiting at once.
 */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new ExplorerError('cancelled', 'The export was cancelled.'))
    if (signal.aborted) return stop()
    signal.addEventListener('abort', stop, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

function describe(error: unknown): string {
  if (error instanceof ExplorerError) return error.message
  const code = (error as { code?: unknown }).code
  if (code === 'ENOSPC') return 'The disk is full; the export was stopped and its partial file removed.'
  if (code === 'EACCES' || code === 'EPERM') return 'The file cannot be written there (no permission); choose another folder.'
  if (code === 'EEXIST') return 'A file of the same temporary name exists already; try again.'
  if (code === 'ENOENT') return 'The folder chosen for the file does not exist any more.'
  return `The export failed: ${error instanceof Error ? error.message : String(error)}`
}
