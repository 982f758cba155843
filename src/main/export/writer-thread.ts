import type { Worker } from 'node:worker_threads'
import { startWorkerThread } from '../jobs/worker-entry'
import type { ExportFormat } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { FormatWriter, WriterPaths } from './writer-interface'
import type { CrossingError, WriterReply, WriterRequest } from './writer-protocol'

/**
 * Format writers that run in worker threads: an answer shaped to take
 * seconds to read (or a 50 MiB page, or 100,000 rows to write) holds a
 * worker thread, never the main event loop that answers the window. A thread
 * serves one export at a time and is kept for the next (starting one loads
 * the writers, exceljs among them); a cancel stops the thread where it
 * stands, and a new one is started when needed.
 */

/** The built entry (electron.vite.config.ts: `export-writer`). */
const BUILT_ENTRY = 'export-writer.js'
/** A heap no export needs (a 50 MiB page reads in a few hundred MiB): past it the thread stops and the export fails, the app goes on. */
export const WRITER_HEAP_MB = 1024

function startWorker(): Worker {
  return startWorkerThread({ caller: __filename, source: 'writer-worker.ts', built: BUILT_ENTRY, what: 'The export', resourceLimits: { maxOldGenerationSizeMb: WRITER_HEAP_MB } })
}

/** The threads of one app: idle ones wait for the next export without keeping the process alive. */
export class WriterThreads {
  private readonly idle: Worker[] = []
  private readonly all = new Set<Worker>()

  /** A writer of `format` on a thread of its own for this export; `signal` (its cancel) stops the thread at once. */
  async start(format: ExportFormat, paths: WriterPaths, rowsWanted: number, columns: string[] | null, signal: AbortSignal): Promise<FormatWriter> {
    const worker = this.idle.pop() ?? this.spawn()
    worker.ref()
    const writer = new ThreadWriter(worker, signal, (reusable) => this.release(worker, reusable))
    await writer.open(format, paths, rowsWanted, columns)
    return writer
  }

  async close(): Promise<void> {
    const workers = [...this.all]
    this.all.clear()
    this.idle.length = 0
    await Promise.all(workers.map((worker) => worker.terminate()))
  }

  private spawn(): Worker {
    const worker = startWorker()
    this.all.add(worker)
    worker.once('exit', () => {
      this.all.delete(worker)
      const at = this.idle.indexOf(worker)
      if (at >= 0) this.idle.splice(at, 1)
    })
    return worker
  }

  private release(worker: Worker, reusable: boolean): void {
    if (!reusable || !this.all.has(worker)) {
      void worker.terminate()
      return
    }
    worker.unref()
    this.idle.push(worker)
  }
}

function fromCrossing(error: CrossingError): Error {
  if (error.explorer) return new ExplorerError(error.code as ExplorerError['code'], error.message, (error.extra ?? {}) as ExplorerError['extra'])
  return Object.assign(new Error(error.message), error.code ? { code: error.code } : {})
}

/** One export's writer, spoken to across the thread; released to the pool when the export is over. */
class ThreadWriter implements FormatWriter {
  private static nextId = 0
  private pending: { id: number; resolve: (reply: WriterReply) => void; reject: (error: Error) => void } | null = null
  private written = 0
  private stopped: Error | null = null
  private released = false
  private readonly detach: () => void

  constructor(
    private readonly worker: Worker,
    signal: AbortSignal,
    private readonly release: (reusable: boolean) => void,
  ) {
    const onMessage = (reply: WriterReply) => {
      const pending = this.pending
      if (pending?.id !== reply.id) return
      this.written = reply.bytes
      this.pending = null
      pending.resolve(reply)
    }
    const onError = (error: Error & { code?: string }) =>
      this.stop(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ExplorerError('too_large', `The export was stopped: reading the service's answer needed more than ${WRITER_HEAP_MB} MiB of memory.`)
          : new ExplorerError('internal', `The export stopped unexpectedly: ${error.message}`),
      )
    const onExit = () => this.stop(new ExplorerError('internal', 'The export stopped unexpectedly.'))
    const onAbort = () => this.stop(new ExplorerError('cancelled', 'The export was cancelled.'))
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
    signal.addEventListener('abort', onAbort, { once: true })
    this.detach = () => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      signal.removeEventListener('abort', onAbort)
    }
    if (signal.aborted) onAbort()
  }

  get bytes(): number {
    return this.written
  }

  async open(format: ExportFormat, paths: WriterPaths, rowsWanted: number, columns: string[] | null): Promise<void> {
    try {
      await this.send({ id: ++ThreadWriter.nextId, op: 'open', format, paths, rowsWanted, columns })
    } catch (error) {
      this.end(this.stopped === null)
      throw error
    }
  }

  async addPage(body: Buffer, asked: number): Promise<number> {
    // A copy the thread may own: the page's buffer may be a slice of a pooled one.
    const copy = new Uint8Array(body)
    const reply = await this.send({ id: ++ThreadWriter.nextId, op: 'page', body: copy, asked }, [copy.buffer])
    return reply.kept
  }

  async finish(): Promise<void> {
    await this.send({ id: ++ThreadWriter.nextId, op: 'finish' })
    this.end(true)
  }

  /** Closes the files the thread holds when it is idle and fine; a busy or stopped thread is ended where it stands. */
  async abandon(): Promise<void> {
    if (this.released) return
    if (this.stopped || this.pending) return this.end(false)
    const closed = await this.send({ id: ++ThreadWriter.nextId, op: 'abandon' }).then(
      () => true,
      () => false,
    )
    this.end(closed)
  }

  private send(request: WriterRequest, transfer: ArrayBuffer[] = []): Promise<WriterReply & { ok: true }> {
    if (this.stopped) return Promise.reject(this.stopped)
    return new Promise((resolvePromise, reject) => {
      this.pending = {
        id: request.id,
        resolve: (reply) => (reply.ok ? resolvePromise(reply) : reject(fromCrossing(reply.error))),
        reject,
      }
      this.worker.postMessage(request, transfer)
    })
  }

  /** No more requests: the one pending fails with `error`, and the thread, which may be mid-work, is not used again. */
  private stop(error: Error): void {
    this.stopped ??= error
    const pending = this.pending
    this.pending = null
    pending?.reject(this.stopped)
    this.end(false)
  }

  private end(reusable: boolean): void {
    if (this.released) return
    this.released = true
    this.detach()
    this.release(reusable && this.stopped === null)
  }
}
