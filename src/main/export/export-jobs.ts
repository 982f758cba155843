import { randomUUID } from 'node:crypto'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import {
  EXPORT_CONTENT_TYPES,
  EXPORT_EXTENSIONS,
  EXPORT_FORMAT_DESCRIPTIONS,
  EXPORT_PAGE_SIZE,
  exportPageRequest,
  exportRefusal,
} from '../../shared/export/plan'
import { exportFileName } from '../../shared/export/file-name'
import type { ExportFormat, ExportStatus } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import { validateRequest } from '../../shared/query/validate'
import type { ConnectionRegistry } from '../connections/connection-registry'
import { DOWNLOAD_LIFETIME_MS, DOWNLOAD_PATH, type DownloadTickets } from '../host/download-tickets'
import type { FileDialogs } from '../host/file-dialogs'
import type { Logger } from '../logging/logger'
import type { QueryRunner } from '../http/query-runner'
import { JobsOfKind } from '../jobs/background-jobs'
import { ExportJob, type ExportProgress } from './export-job'
import { WriterThreads } from './writer-thread'

/** Exports running at once: each asks its pages one after another, so two keep the service and the disk busy enough. */
export const MAX_RUNNING_EXPORTS = 2
/** How long a finished export's status stays readable (the window polls it, and may come back to it). */
export const FINISHED_KEPT_MS = 5 * 60_000
const MAX_FINISHED_KEPT = 50

export interface ExportDeps {
  dataDir: string
  dialogs: FileDialogs | null
  registry: ConnectionRegistry
  runner: QueryRunner
  log: Logger
  /** The browser host's one-time download addresses; null in Electron, where the user chose the file. */
  downloads: DownloadTickets | null
}

export interface ExportStart {
  connectionId: string
  request: QueryRequest
  format: ExportFormat
  rows: number
  /** csv and xlsx: the grid's columns by key, in order; left out: every column the pages hold. */
  columns?: string[] | undefined
  /** The saved query the rows come from: it names the file. */
  savedQuery?: string | undefined
}

/**
 * The exports of this run: where each file goes (the path chosen in
 * Electron's save dialog, or the app's `exports` folder and then a one-time
 * download in the browser host), how many run at once, and their statuses,
 * which the window polls and which are forgotten a few minutes after the end.
 * A cancelled export's partial file is removed before the cancel's reply.
 */
export class ExportJobs extends JobsOfKind<ExportProgress, ExportStatus> {
  private readonly folder: string
  private readonly spoolFolder: string
  private readonly ready: Promise<void>
  private readonly threads = new WriterThreads()

  constructor(private readonly deps: ExportDeps) {
    super(
      {
        noun: 'export',
        maxRunning: MAX_RUNNING_EXPORTS,
        keptMs: FINISHED_KEPT_MS,
        maxFinishedKept: MAX_FINISHED_KEPT,
        status: (job) => ({ ...job.statusFields(), ...job.progress }),
        summary: ({ progress }) => `${progress.rows} rows, ${progress.bytes} bytes`,
      },
      deps.log,
    )
    this.folder = join(deps.dataDir, 'exports')
    this.spoolFolder = join(this.folder, 'spool')
    // A folder that cannot be made shows up as the first export's failure, with its reason.
    this.ready = this.prepareFolders().catch((error: unknown) => deps.log.error('exports: the exports folder could not be prepared', error))
  }

  async start({ connectionId, request, format, rows, columns, savedQuery }: ExportStart): Promise<ExportStatus | null> {
    const refusal = exportRefusal(request)
    if (refusal) throw new ExplorerError('validation', refusal)
    // The first page is checked now, so a request that cannot be sent is refused before any dialog or file.
    const problems = validateRequest(exportPageRequest(request, request.options.offset ?? 0, Math.min(EXPORT_PAGE_SIZE, rows), format))
    if (problems.length > 0) throw new ExplorerError('validation', problems.map((problem) => problem.message).join('\n'), { problems })
    const target = this.deps.registry.target(connectionId)
    this.jobs.checkCapacity()
    await this.ready

    const id = randomUUID()
    const suggested = exportFileName({ request, savedQuery }, format)
    let path: string
    let fileName: string
    if (this.deps.dialogs) {
      const chosen = await this.deps.dialogs.chooseSave({
        title: 'Export results',
        defaultName: suggested,
        filters: [{ name: EXPORT_FORMAT_DESCRIPTIONS[format], extensions: [EXPORT_EXTENSIONS[format]] }],
      })
      if (chosen === null) return null
      // Another export may have started while the dialog was open.
      this.jobs.checkCapacity()
      path = chosen
      fileName = basename(chosen)
    } else {
      path = join(this.folder, `${id}.${EXPORT_EXTENSIONS[format]}`)
      fileName = suggested
    }
    const job = new ExportJob(
      {
        id,
        format,
        request,
        rows,
        columns: format === 'csv' || format === 'xlsx' ? (columns ?? null) : null,
        target,
        path,
        fileName,
        // Beside the final file, so that the rename that reveals it is atomic.
        tempPath: join(dirname(path), `.${basename(path)}.${id.slice(0, 8)}.part`),
        spoolPath: join(this.spoolFolder, `${id}.spool`),
      },
      this.deps.runner,
      this.threads,
      (done) => this.completed(done),
      (text) => this.deps.log.scrub(text),
    )
    this.deps.log.info(`export ${id}: ${format}, up to ${rows} rows, started`)
    return this.jobs.start(id, job.progress(), (running) => job.run(running))
  }

  /** Stops what runs (their partial files are removed) and forgets the rest. */
  override async close(): Promise<void> {
    await super.close()
    await this.threads.close()
  }

  /** The browser host hands a finished file to the page as a one-time download address; Electron wrote it where the user chose. */
  private async completed(job: ExportJob): Promise<string | null> {
    const { downloads, dialogs } = this.deps
    // A file the user chose is theirs: it is never served, nor deleted once fetched.
    if (!downloads || dialogs) return null
    const ticket = downloads.issue({ path: job.spec.path, fileName: job.spec.fileName, contentType: EXPORT_CONTENT_TYPES[job.spec.format] })
    return `${DOWNLOAD_PATH}${ticket}`
  }

  /**
   * The exports folder, private to the user, without what an earlier run
   * left: files of downloads never fetched, pages of an export cut short.
   * Only what is older than a download's lifetime goes, in case another
   * instance shares the folder.
   */
  private async prepareFolders(): Promise<void> {
    await mkdir(this.spoolFolder, { recursive: true, mode: 0o700 })
    const cutoff = Date.now() - DOWNLOAD_LIFETIME_MS
    for (const folder of [this.folder, this.spoolFolder]) {
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const path = join(folder, name)
        const info = await stat(path).catch(() => null)
        if (info?.isFile() && info.mtimeMs < cutoff) await rm(path, { force: true }).catch(() => undefined)
      }
    }
  }
}
