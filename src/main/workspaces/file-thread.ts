import { EventEmitter } from 'node:events'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { ExplorerError } from '../../shared/ipc/errors'
import { deserialize } from 'node:v8'
import type { Judgment, QuerySet } from '../../shared/relevance/query-set'
import type { Workspace, WorkspaceLayout } from '../../shared/workspace/workspace-file'
import { startWorkerThread } from '../jobs/worker-entry'
import type { DocumentFacts, FileReply, FileRequest, FileRequestKind, FileStage, SetPart } from './file-thread-protocol'
import type { Rating } from './rating-index'
import { SESSION_FILE, type SessionMeta, type StoredSession } from './session-file'
import { SetMirror } from './set-mirror'

/** The built entry (electron.vite.config.ts: `workspace-files`). */
const BUILT_ENTRY = 'workspace-files.js'

/**
 * Told when the file thread starts the costly part of a request (serializing,
 * reading): tests use it as a probe that main stays free meanwhile.
 */
export const fileThreadStages = new EventEmitter<{ stage: [FileRequestKind] }>()

/** A workspace read on the thread: the checked document and the facts of the text a save of it writes. */
export type ReadDocument = { ok: true; workspace: Workspace } & DocumentFacts

interface Pending {
  resolve: (reply: Answer) => void
  reject: (error: Error) => void
  /** Judgments unpacked so far, by set id. */
  parts: Map<string, Judgment[]>
  /** Parts come packed, all at once as the port hands them over: unpacked one a turn (unpack()). */
  packed: { set: string; packed: Uint8Array }[]
  unpacking: Promise<void> | null
}

/** A write that failed on disk, with the error's code: the caller says which file and what to do (write-errors.ts). */
export class FileWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/**
 * The workspace file thread, seen from main: workspace files and
 * session.json are read, parsed, checked, serialized and written there
 * (file-worker.ts), so main never holds the whole document as text. Main
 * sends documents through a SetMirror (the sets the thread already has go by
 * id) and gets back the checked documents it reads. One thread for the
 * session, started on first use; it keeps no process alive while idle.
 */
export class WorkspaceFileThread {
  private worker: Worker | null = null
  private readonly pending = new Map<number, Pending>()
  private readonly mirror = new SetMirror()
  private nextId = 1
  /** Documents are encoded one at a time: their parts must not interleave. */
  private sending: Promise<unknown> = Promise.resolve()

  /** A rating took the set `from` to `to` (main's document): the thread follows with the rating, not the set. */
  rated(from: QuerySet, to: QuerySet, rating: Rating): void {
    this.mirror.rated(from, to, rating)
  }

  /** Ratings taken at once took the set `from` to `to`: the thread follows with them, in order. */
  ratedMany(from: QuerySet, to: QuerySet, ratings: readonly Rating[]): void {
    this.mirror.ratedMany(from, to, ratings)
  }

  async open(path: string): Promise<ReadDocument | { ok: false; message: string }> {
    return this.read({ kind: 'open', path })
  }

  async import(fileName: string, text: string): Promise<ReadDocument | { ok: false; message: string }> {
    return this.read({ kind: 'import', fileName, text })
  }

  /** session.json of the last run, read and checked on the thread (session-file.ts readSession). */
  async readSession(dataDir: string): Promise<{ state: (Omit<StoredSession, 'document'> & DocumentFacts) | null; problem: string | null }> {
    // No session to restore (a first start): no thread is started for it.
    if (!(await exists(join(dataDir, SESSION_FILE)))) return { state: null, problem: null }
    const as = this.mirror.reserveDocumentId()
    const reply = await this.request({ type: 'request', id: 0, kind: 'read-session', dataDir, as })
    if (!reply.ok) throw new ExplorerError('internal', reply.message)
    if (!reply.session || !reply.document) return { state: null, problem: reply.problem ?? null }
    const workspace = this.mirror.decode(reply.document, reply.parts, null)
    return { state: { ...reply.session, workspace, ...facts(reply) }, problem: null }
  }

  /**
   * An edited document checked as a save would write it (the file format's
   * serializer and bound, then read back): the document as read back, with
   * its facts, or why it cannot be taken. Sets that went by id stay main's own.
   */
  async check(workspace: Workspace, layout: WorkspaceLayout, previousBytes: number, name: string): Promise<ReadDocument | { ok: false; message: string }> {
    const as = this.mirror.reserveDocumentId()
    const reply = await this.request(
      async (send) => ({ type: 'request', id: 0, kind: 'check', layout, previousBytes, name, as, document: await this.mirror.encode(workspace, send) }),
    )
    if (!reply.ok) return reply
    return { ok: true, workspace: this.mirror.decode(reply.document!, reply.parts, workspace), ...facts(reply) }
  }

  /** Writes the document to a workspace file, keeping its mode; a refusal (too large) is an ExplorerError, a disk's failure a FileWriteError. */
  async save(path: string, workspace: Workspace, layout: WorkspaceLayout): Promise<DocumentFacts> {
    return this.written(await this.request(async (send) => ({ type: 'request', id: 0, kind: 'save', path, layout, document: await this.mirror.encode(workspace, send) })))
  }

  /** The document's text, for a download (browser host). */
  async text(workspace: Workspace, layout: WorkspaceLayout): Promise<DocumentFacts & { text: string }> {
    const reply = await this.request(async (send) => ({ type: 'request', id: 0, kind: 'text', layout, document: await this.mirror.encode(workspace, send) }))
    return { ...this.written(reply), text: (reply as { text?: string }).text ?? '' }
  }

  async writeSession(dataDir: string, meta: SessionMeta, workspace: Workspace, layout: WorkspaceLayout): Promise<DocumentFacts> {
    return this.written(
      await this.request(async (send) => ({ type: 'request', id: 0, kind: 'write-session', dataDir, meta, layout, document: await this.mirror.encode(workspace, send) })),
    )
  }

  /** Stops the thread; what was asked of it and not answered fails. */
  async close(): Promise<void> {
    const worker = this.worker
    this.worker = null
    this.stopped(new ExplorerError('internal', 'The workspace file thread was closed.'))
    await worker?.terminate()
  }

  private async read(request: { kind: 'open'; path: string } | { kind: 'import'; fileName: string; text: string }): Promise<ReadDocument | { ok: false; message: string }> {
    const as = this.mirror.reserveDocumentId()
    const reply = await this.request({ type: 'request', id: 0, ...request, as })
    if (!reply.ok) return reply
    return { ok: true, workspace: this.mirror.decode(reply.document!, reply.parts, null), ...facts(reply) }
  }

  private written(reply: Answer): DocumentFacts {
    if (reply.ok) return facts(reply)
    if (reply.write) throw new FileWriteError(reply.message, reply.code)
    throw new ExplorerError('validation', reply.message)
  }

  /**
   * Sends a request (made by `make`, which may send set parts first) and
   * waits for its answer. Requests are posted one at a time, in the order
   * asked (a document's parts must not interleave with another's); their
   * answers are awaited together.
   */
  private request(make: FileRequest | ((send: (part: SetPart) => void) => Promise<FileRequest>)): Promise<Answer> {
    const posted = this.sending.then(async () => {
      const worker = this.start()
      const request = typeof make === 'function' ? await make((part) => worker.postMessage(part)) : make
      const id = this.nextId++
      // Wrapped, so that the chain waits for the posting and not for the answer.
      const answer = new Promise<Answer>((resolve, reject) => this.pending.set(id, { resolve, reject, parts: new Map(), packed: [], unpacking: null }))
      worker.ref()
      worker.postMessage({ ...request, id })
      return { answer }
    })
    this.sending = posted.catch(() => undefined)
    return posted.then(({ answer }) => answer)
  }

  private start(): Worker {
    if (this.worker) return this.worker
    const worker = startWorkerThread({ caller: __filename, source: 'file-worker.ts', built: BUILT_ENTRY, what: 'The workspace file thread' })
    worker.unref()
    worker.on('message', (message: FileReply | SetPart | FileStage) => this.received(message))
    worker.on('error', (error) => this.stopped(new ExplorerError('internal', `The workspace file thread failed: ${error.message}`)))
    worker.on('exit', (code) => {
      if (this.worker === worker) this.stopped(new ExplorerError('internal', `The workspace file thread stopped (exit code ${code}).`))
    })
    this.worker = worker
    return worker
  }

  private received(message: FileReply | SetPart | FileStage): void {
    if (message.type === 'stage') {
      fileThreadStages.emit('stage', message.kind)
      return
    }
    if (message.type === 'part') {
      const pending = message.reply === undefined ? undefined : this.pending.get(message.reply)
      if (!pending || !('packed' in message)) return
      // Unpacked one a turn while the thread goes on (it serializes the text after sending the parts).
      pending.packed.push({ set: message.set, packed: message.packed })
      pending.unpacking ??= unpack(pending)
      return
    }
    const pending = this.pending.get(message.id)
    if (!pending) return
    this.pending.delete(message.id)
    void (pending.unpacking ?? Promise.resolve()).then(() => pending.resolve({ ...message, parts: pending.parts }), pending.reject)
    if (this.pending.size === 0) this.worker?.unref()
  }

  /** The thread is gone: every request waiting fails, and a new thread holds no set. */
  private stopped(error: Error): void {
    this.worker = null
    this.mirror.reset()
    for (const pending of this.pending.values()) pending.reject(error)
    this.pending.clear()
  }
}

type Answer = FileReply & { parts: Map<string, Judgment[]> }

/** Unpacks a request's parts one a turn, yielding the event loop between them, until none is left. */
async function unpack(pending: Pending): Promise<void> {
  while (pending.packed.length > 0) {
    await new Promise((resolve) => setImmediate(resolve))
    const { set, packed } = pending.packed.shift()!
    const judgments = pending.parts.get(set) ?? []
    for (const judgment of deserialize(packed) as Judgment[]) judgments.push(judgment)
    pending.parts.set(set, judgments)
  }
  pending.unpacking = null
}

function facts(reply: Partial<DocumentFacts>): DocumentFacts {
  return { layout: reply.layout!, bytes: reply.bytes!, digest: reply.digest! }
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.lstat(path)
    return true
  } catch (error) {
    // Anything but "not there" is the thread's to read and say (session-file.ts sets an unreadable one aside).
    return (error as NodeJS.ErrnoException).code !== 'ENOENT'
  }
}
