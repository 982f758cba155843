import { rename, rm, stat } from 'node:fs/promises'
import { EXPORT_PAGE_SIZE, exportPageRequest } from '../../shared/export/plan'
import type { ExportFormat, ExportStatus } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import type { QueryRunner, QueryTarget } from '../http/query-runner'
import type { FormatWriter } from './format-writer'
import type { WriterThreads } from './writer-thread'

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
  private state: ExportStatus['state'] = 'running'
  private written = 0
  private bytes = 0
  private message: string | null = null
  private downloadUrl: string | null = null
  private readonly controller = new AbortController()
  /** Epoch ms when it stopped running, for the status table's clean-up. */
  endedAt: number | null = null
  /** Settles when the job has stopped and cleaned up, whatever the outcome. */
  readonly done: Promise<void>

  constructor(
    readonly spec: ExportJobSpec,
    private readonly runner: QueryRunner,
    /** Where the pages are read and the file written, off the main event loop. */
    private readonly threads: WriterThreads,
    /** Called once the file is complete; the browser host answers with a download address. */
    private readonly completed: (job: ExportJob) => Promise<string | null>,
    private readonly scrub: (text: string) => string,
  ) {
    this.done = this.run()
  }

  get running(): boolean {
    return this.state === 'running'
  }

  status(): ExportStatus {
    return {
      exportId: this.spec.id,
      state: this.state,
      fileName: this.spec.fileName,
      rows: this.written,
      rowsWanted: this.spec.rows,
      bytes: this.bytes,
      message: this.message,
      downloadUrl: this.downloadUrl,
    }
  }

  /** Stops the request in flight; the partial file is removed before the state turns to cancelled. */
  async cancel(): Promise<ExportStatus> {
    if (this.state === 'running') {
      this.controller.abort()
      await this.done
    }
    return this.status()
  }

  private async run(): Promise<void> {
    const { spec } = this
    const signal = this.controller.signal
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
      while (this.written < spec.rows) {
        signal.throwIfAborted()
        const asked = Math.min(EXPORT_PAGE_SIZE, spec.rows - this.written)
        const reply = await (ahead?.at === offset && ahead.asked === asked ? ahead.page : fetchPage(offset, asked))
        ahead = null
        // An XLSX page takes longer to read (unzip, its sheet) than to ask, so the next page is asked while this one is
        // read: two pages at most are held, one in the writer thread. CSV and JSON pages, quick to read, are asked in turn.
        const next = Math.min(EXPORT_PAGE_SIZE, spec.rows - this.written - asked)
        if (spec.format === 'xlsx' && next > 0) ahead = { at: offset + asked, asked: next, page: fetchPage(offset + asked, next) }
        const kept = await writer.addPage(reply.body, asked)
        this.written += kept
        offset += kept
        this.bytes = writer.bytes
        // Fewer rows than asked: the results end here.
        if (kept < asked) break
      }
      signal.throwIfAborted()
      await writer.finish(signal)
      signal.throwIfAborted()
      await rename(spec.tempPath, spec.path)
      renamed = true
      this.bytes = (await stat(spec.path)).size
      this.downloadUrl = await this.completed(this)
      this.state = 'done'
    } catch (error) {
      await writer?.abandon().catch(() => undefined)
      await rm(spec.tempPath, { force: true }).catch(() => undefined)
      if (renamed) await rm(spec.path, { force: true }).catch(() => undefined)
      if (signal.aborted) {
        this.state = 'cancelled'
        this.message = `Export cancelled after ${this.written.toLocaleString('en-US')} rows; no file was written.`
      } else {
        this.state = 'failed'
        this.message = this.scrub(describe(error))
      }
    } finally {
      await rm(spec.spoolPath, { force: true }).catch(() => undefined)
      this.endedAt = Date.now()
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
