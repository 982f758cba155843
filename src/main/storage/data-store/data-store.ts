import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { ExplorerError } from '../../../shared/ipc/errors'
import { startWorkerThread } from '../../jobs/worker-entry'
import type { StoreAnswer, StoreArgs, StoreOp } from './store-ops'
import { KEPT_EVALUATIONS, KEPT_EXPERIMENTS, type StoreInfo, type StoreOpened, type StoreCall, type StoreReply, type StoreRequest, type StoreSettings } from './store-protocol'

/** Requests of the store under names of a caller's own: `{ list: 'evaluations.list' }` gives `list(set)`, typed as the table's method. */
export type StoreRequests<R extends Readonly<Record<string, StoreOp>>> = { readonly [K in keyof R]: (...args: StoreArgs<R[K]>) => Promise<StoreAnswer<R[K]>> }

/** Functions that send those requests to `data`, one a name (EvaluationStore and ExperimentStore are made of them). */
export function storeRequests<R extends Readonly<Record<string, StoreOp>>>(data: DataStore, requests: R): StoreRequests<R> {
  // Each function's types are its request's (StoreRequests); the one call below serves them all.
  const send = data.call.bind(data) as (op: StoreOp, ...args: unknown[]) => Promise<unknown>
  return Object.fromEntries(Object.entries(requests).map(([name, op]) => [name, (...args: unknown[]) => send(op, ...args)])) as unknown as StoreRequests<R>
}

/** The database in the data folder (README: "Where your data lives"). */
export const DATA_STORE_FILE = 'data.db'

/** The built entry (electron.vite.config.ts: `data-store`). */
const BUILT_ENTRY = 'data-store.js'

/**
 * The main thread's side of the data folder's database: every call is a
 * message to the store's thread (store-worker.ts), answered when the thread
 * has done it, so main never waits on the disk. Requests run in the order
 * they are sent (a long read, scoring or writing a kept evaluation, lets
 * those sent after it run between its pages). A file that is not a
 * database is set aside and a new one made (StoreInfo.notes says so); one
 * from a newer app is left as it is on disk: every call then fails saying so.
 */
export class DataStore {
  readonly file: string
  private readonly worker: Worker | null
  /** Why the thread is gone (closed, crashed, never started): later calls fail at once saying so. */
  private gone: string | null = null
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  private nextId = 1
  private closed: Promise<void> | null = null
  /** Resolves with what the open found; never rejects (a failed open is answered per call). */
  readonly opened: Promise<StoreOpened>

  constructor(dataDir: string, options: { historyKeep?: number; evaluationsKeep?: number; experimentsKeep?: number } = {}) {
    this.file = join(dataDir, DATA_STORE_FILE)
    let openedNow: (opened: StoreOpened) => void
    this.opened = new Promise((resolve) => (openedNow = resolve))
    let worker: Worker
    try {
      worker = startWorkerThread({ caller: __filename, source: 'store-worker.ts', built: BUILT_ENTRY, what: "The data folder's database" })
    } catch (error) {
      // A thread that cannot start (its built entry missing) costs History, never the app's start.
      this.worker = null
      this.gone = (error as Error).message
      openedNow!({ id: 0, opened: false, message: this.gone })
      return
    }
    this.worker = worker
    worker.on('message', (message: StoreReply | StoreOpened) => {
      if (message.id === 0) {
        // An idle store never keeps a process alive; one with calls on the way does.
        if (this.waiting.size === 0) worker.unref()
        return openedNow(message as StoreOpened)
      }
      const reply = message as StoreReply
      const call = this.waiting.get(reply.id)
      if (!call) return
      this.waiting.delete(reply.id)
      if (this.waiting.size === 0) worker.unref()
      if (reply.ok) call.resolve(reply.value)
      else if (reply.code) call.reject(new ExplorerError(reply.code, reply.message))
      else call.reject(new ExplorerError('internal', `The data folder's database (${this.file}) could not be read or written: ${reply.message}`))
    })
    const stopped = (why: string) => {
      this.gone ??= why
      openedNow({ id: 0, opened: false, message: why })
      for (const call of this.waiting.values()) call.reject(new ExplorerError('internal', `The data folder's database stopped: ${why}`))
      this.waiting.clear()
    }
    worker.on('error', (error) => stopped(error.message))
    worker.on('exit', (code) => stopped(`its thread exited (code ${code})`))
    // The settings go as the first message: the thread entry is started the same way from sources and built.
    const settings: StoreSettings = {
      file: this.file,
      dataDir,
      historyKeep: options.historyKeep ?? 1_000,
      evaluationsKeep: options.evaluationsKeep ?? KEPT_EVALUATIONS,
      experimentsKeep: options.experimentsKeep ?? KEPT_EXPERIMENTS,
    }
    worker.postMessage(settings)
  }

  /** What the open found: the version, the journal mode, what was imported; rejects when it could not open. */
  async info(): Promise<StoreInfo> {
    const opened = await this.opened
    if (!opened.opened) throw this.openFailure(opened.message)
    return opened.info
  }

  /** Closes the database (its WAL is checkpointed into the file) and stops the thread. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      try {
        if ((await this.opened).opened && !this.gone) await this.send({ op: 'close' })
      } finally {
        this.gone = 'the database is closed'
        await this.worker?.terminate()
      }
    })()
    return this.closed
  }

  /**
   * Asks the store's thread to call a table's method (store-ops.ts): the
   * arguments and the answer are that method's. Answered once the thread has
   * done it; requests run in the order they are sent.
   */
  call<O extends StoreOp>(op: O, ...args: StoreArgs<O>): Promise<StoreAnswer<O>> {
    return this.send({ op, args }) as Promise<StoreAnswer<O>>
  }

  private async send(request: StoreCall): Promise<unknown> {
    const opened = await this.opened
    if (!opened.opened) throw this.openFailure(opened.message)
    if (this.gone !== null || !this.worker) throw new ExplorerError('internal', `The data folder's database (${this.file}) is not open: ${this.gone}.`)
    const worker = this.worker
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ ...request, id })
    })
  }

  private openFailure(message: string): ExplorerError {
    return new ExplorerError('internal', `The data folder's database (${this.file}) could not be opened: ${message}. It is kept as it is; nothing in it was changed.`)
  }
}
