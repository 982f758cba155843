import { createHash, randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import { ExplorerError } from '../../shared/ipc/errors'
import { MAX_UPLOAD_BYTES, UPLOAD_KINDS, UPLOAD_OFFSET_HEADER, UPLOAD_PART_BYTES, type UploadKind } from '../../shared/ipc/uploads'
import { MAX_WORKSPACE_BYTES } from '../workspaces/workspace-files'
import { readBody, readBodyBytes, sendJson } from './loopback-http'

/** Long enough to send a file and have it read, short enough that one the page never finished does not linger. */
export const UPLOAD_LIFETIME_MS = 10 * 60_000
/** Uploads open at once: bounds the table, and the folder (at most this many files of the largest bound). */
export const MAX_OPEN_UPLOADS = 8

const GONE = 'This upload was used already or has expired (a file sent is kept 10 minutes); choose the file again.'

/** A refusal of the upload route, with the HTTP status it answers with and the sentence the page shows. */
export class UploadRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'UploadRefused'
  }
}

/** A file whose bytes have all arrived, for the one channel call that reads it. */
export interface UploadedFile {
  path: string
  /** The name of the file the user picked, as the page gave it. */
  fileName: string
  size: number
  /** What the page said it sends, and was bounded as. */
  kind: UploadKind
}

interface Entry extends UploadedFile {
  /** The digest of the session key that opened it: only that page sends its parts. */
  owner: string
  received: number
  /** When a part last arrived (or it opened): it expires UPLOAD_LIFETIME_MS after. */
  touched: number
  /** A part is being written: parts come one after another. */
  busy: boolean
}

export interface UploadTicketsOptions {
  /** The clock expiry is measured on (tests move it on by hand). */
  now?: () => number
  lifetimeMs?: number
  /** The most bytes a file of each kind may hold: its own bound, the one main reads it with. */
  bounds?: Partial<Record<UploadKind, number>>
}

/** Each kind's own bound: a judgments file's (20 MiB), a workspace file's (32 MiB: 10,000 queries and 200,000 judgments fit). */
export const UPLOAD_BOUNDS: Record<UploadKind, number> = { judgments: MAX_UPLOAD_BYTES, workspace: MAX_WORKSPACE_BYTES }

/**
 * The browser host's uploads, as DownloadTickets are its downloads. The page
 * opens an upload with the file's name, size and kind (refused at once past
 * that kind's bound) and gets a ticket (32 random bytes; the table holds its
 * digest); it sends the bytes in parts of at most UPLOAD_PART_BYTES, in
 * order, each with the session key that opened it, into a file of its own
 * (0600, in a folder of the data folder) that can never grow past the size
 * announced. A channel then takes the upload once by its ticket, whole, and
 * the file is deleted after it was read. Expired uploads are swept as the
 * table is used (no timers), and all are deleted when the app stops.
 */
export class UploadTickets {
  private readonly uploads = new Map<string, Entry>()
  private readonly now: () => number
  private readonly lifetimeMs: number
  readonly bounds: Record<UploadKind, number>
  private folder: Promise<void> | null = null

  constructor(
    private readonly dir: string,
    options: UploadTicketsOptions = {},
  ) {
    this.now = options.now ?? Date.now
    this.lifetimeMs = options.lifetimeMs ?? UPLOAD_LIFETIME_MS
    this.bounds = { ...UPLOAD_BOUNDS, ...options.bounds }
  }

  /** A ticket for a file of `size` bytes and of `kind`, sent by the page of session key `owner`. */
  async open(owner: string, fileName: string, size: number, kind: UploadKind = 'judgments'): Promise<string> {
    const bound = this.bounds[kind]
    if (size > bound) throw new UploadRefused(413, tooLarge(fileName, size, bound, kind))
    const ticket = randomBytes(32).toString('base64url')
    const digest = digestOf(ticket)
    const path = join(this.dir, `${randomBytes(16).toString('hex')}.part`)
    try {
      await this.ensureFolder()
      await fs.writeFile(path, '', { mode: 0o600, flag: 'wx' })
    } catch (error) {
      throw unstorable(fileName, error)
    }
    // From here to the entry's place in the table nothing waits: uploads opened at once never pass the bound together.
    const removals = [this.sweep()]
    while (this.uploads.size >= MAX_OPEN_UPLOADS) {
      // The oldest idle one makes room: a page that went away mid-upload must not hold a place for 10 minutes.
      const idle = [...this.uploads].find(([, entry]) => !entry.busy)
      if (!idle) {
        await fs.rm(path, { force: true }).catch(() => undefined)
        throw new UploadRefused(503, `${MAX_OPEN_UPLOADS} files are being sent to the app at once; send this one when they are done.`)
      }
      removals.push(this.drop(idle[0]))
    }
    this.uploads.set(digest, { path, fileName, size, kind, owner: digestOf(owner), received: 0, touched: this.now(), busy: false })
    await Promise.all(removals)
    return ticket
  }

  /** Appends one part at byte `offset`; the bytes received so far. Refuses, in words, a part out of order, too large, or past the size announced. */
  async append(owner: string, ticket: string, offset: number, part: Buffer): Promise<number> {
    const digest = await this.live(ticket)
    const entry = digest === null ? undefined : this.uploads.get(digest)
    if (!entry || digest === null) throw new UploadRefused(404, GONE)
    if (entry.owner !== digestOf(owner)) throw new UploadRefused(403, 'This upload was opened by another page of the app; choose the file again in this one.')
    if (entry.busy) throw new UploadRefused(409, `Another part of "${entry.fileName}" is being written; send the parts one after another.`)
    if (offset !== entry.received) {
      throw new UploadRefused(409, `This part starts at byte ${offset}, but ${entry.received} bytes of "${entry.fileName}" have arrived: send the parts in order.`)
    }
    if (entry.received + part.length > entry.size) {
      await this.drop(digest)
      throw new UploadRefused(
        413,
        `"${entry.fileName}" sent more than the ${entry.size.toLocaleString('en-US')} bytes it announced, so the upload was dropped; choose the file again.`,
      )
    }
    entry.busy = true
    try {
      await fs.appendFile(entry.path, part)
    } catch (error) {
      entry.busy = false
      await this.drop(digest)
      throw unstorable(entry.fileName, error)
    }
    entry.busy = false
    entry.received += part.length
    entry.touched = this.now()
    return entry.received
  }

  /**
   * Reads an upload once, whole: the ticket is spent by this call, and the
   * file is deleted once `read` is done with it, however that ends. An
   * upload sent as another kind is not read (it was bounded as that kind).
   */
  async take<T>(ticket: string, kind: UploadKind, read: (file: UploadedFile) => Promise<T>): Promise<T> {
    const digest = await this.live(ticket)
    const entry = digest === null ? undefined : this.uploads.get(digest)
    if (!entry || digest === null) throw new ExplorerError('not_found', GONE)
    if (entry.kind !== kind) {
      throw new ExplorerError('validation', `"${entry.fileName}" was sent as ${NOUNS[entry.kind]}, not as ${NOUNS[kind]}; choose the file again.`)
    }
    if (entry.busy || entry.received < entry.size) {
      throw new ExplorerError(
        'validation',
        `"${entry.fileName}" has not arrived whole (${entry.received.toLocaleString('en-US')} of ${entry.size.toLocaleString('en-US')} bytes); send the rest first.`,
      )
    }
    this.uploads.delete(digest)
    try {
      return await read({ path: entry.path, fileName: entry.fileName, size: entry.size, kind: entry.kind })
    } finally {
      await fs.rm(entry.path, { force: true }).catch(() => undefined)
    }
  }

  get size(): number {
    return this.uploads.size
  }

  /** Deletes every upload not taken (the app is stopping). */
  async close(): Promise<void> {
    const paths = [...this.uploads.values()].map((entry) => entry.path)
    this.uploads.clear()
    await Promise.all(paths.map((path) => fs.rm(path, { force: true }).catch(() => undefined)))
  }

  /** The digest of a ticket still open, or null. */
  private async live(ticket: string): Promise<string | null> {
    if (ticket.length === 0 || ticket.length > 100) return null
    await this.sweep()
    const digest = digestOf(ticket)
    return this.uploads.has(digest) ? digest : null
  }

  /** Forgets the uploads whose time is up (at once, before it returns a promise), and deletes their files. */
  private sweep(): Promise<void> {
    const now = this.now()
    const expired = [...this.uploads].filter(([, entry]) => !entry.busy && now - entry.touched > this.lifetimeMs)
    return Promise.all(expired.map(([digest]) => this.drop(digest))).then(() => undefined)
  }

  /** Forgets an upload at once; the promise is its file's deletion. */
  private drop(digest: string): Promise<void> {
    const entry = this.uploads.get(digest)
    if (!entry) return Promise.resolve()
    this.uploads.delete(digest)
    return fs.rm(entry.path, { force: true }).catch(() => undefined)
  }

  /**
   * The folder, private to this user; part files a killed run left in it
   * (older than an upload's lifetime: another instance on the same data
   * folder may be receiving one now) are deleted the first time it is used.
   */
  private ensureFolder(): Promise<void> {
    this.folder ??= (async () => {
      await fs.mkdir(this.dir, { recursive: true, mode: 0o700 })
      const cutoff = this.now() - this.lifetimeMs
      for (const name of await fs.readdir(this.dir).catch(() => [] as string[])) {
        if (!name.endsWith('.part')) continue
        const path = join(this.dir, name)
        const info = await fs.stat(path).catch(() => null)
        if (info && info.mtimeMs < cutoff) await fs.rm(path, { force: true }).catch(() => undefined)
      }
    })().catch((error: unknown) => {
      this.folder = null
      throw error
    })
    return this.folder
  }
}

/** What a page sends to open an upload: the file's name and size. */
const MAX_OPEN_BODY_BYTES = 4 * 1024

/**
 * The upload route, for a caller the host has checked (its Host, Origin and
 * session key): `POST /uploads` with `{"fileName": "…", "size": N, "kind":
 * "judgments" | "workspace"}` (judgments when left out) answers
 * `{"ticket", "partBytes"}`; `PUT /uploads/<ticket>` with one part as its body
 * and the byte it starts at in `x-upload-offset` answers `{"received"}`.
 * Every refusal is JSON `{"message"}` in words, with its status.
 */
export async function serveUpload(req: IncomingMessage, res: ServerResponse, uploads: UploadTickets, rest: string, sessionKey: string): Promise<void> {
  try {
    if (rest === '') {
      if (req.method !== 'POST') throw new UploadRefused(405, 'Open an upload with POST.')
      const body = await readBody(req, MAX_OPEN_BODY_BYTES)
      if (body === null) throw new UploadRefused(413, `The request that opens an upload may hold at most ${formatBytes(MAX_OPEN_BODY_BYTES)}.`)
      const { fileName, size, kind } = openRequest(body)
      const ticket = await uploads.open(sessionKey, fileName, size, kind)
      return sendJson(res, 200, JSON.stringify({ ticket, partBytes: UPLOAD_PART_BYTES }))
    }
    if (req.method !== 'PUT') throw new UploadRefused(405, 'Send a part of an upload with PUT.')
    const ticket = rest.startsWith('/') ? rest.slice(1) : ''
    const offsetText = String(req.headers[UPLOAD_OFFSET_HEADER] ?? '')
    if (!/^\d{1,10}$/.test(offsetText)) throw new UploadRefused(400, `Send each part with the header ${UPLOAD_OFFSET_HEADER}: the byte it starts at, a whole number.`)
    const part = await readBodyBytes(req, UPLOAD_PART_BYTES)
    if (part === null) throw new UploadRefused(413, `A part may hold at most ${formatBytes(UPLOAD_PART_BYTES)}; send the file in parts of that size.`)
    const received = await uploads.append(sessionKey, ticket, Number(offsetText), part)
    sendJson(res, 200, JSON.stringify({ received }))
  } catch (error) {
    if (!(error instanceof UploadRefused)) throw error
    // A body not read yet (a refusal before it) is drained, so the page reads this answer rather than a broken connection.
    if (!req.readableEnded) req.resume()
    sendJson(res, error.status, JSON.stringify({ message: error.message }))
  }
}

function openRequest(body: string): { fileName: string; size: number; kind: UploadKind } {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    parsed = null
  }
  const { fileName, size, kind = 'judgments' } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { fileName?: unknown; size?: unknown; kind?: unknown }
  if (typeof fileName !== 'string' || fileName.length === 0 || fileName.length > 255) {
    throw new UploadRefused(400, 'Open an upload with {"fileName": "…", "size": N}: fileName is the name of the file, 1 to 255 characters.')
  }
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw new UploadRefused(400, 'Open an upload with {"fileName": "…", "size": N}: size is the number of bytes in the file, a whole number from 0.')
  }
  if (!UPLOAD_KINDS.includes(kind as UploadKind)) {
    throw new UploadRefused(400, `Open an upload with {"fileName": "…", "size": N, "kind": "…"}: kind is what the file is, one of ${UPLOAD_KINDS.join(', ')}.`)
  }
  return { fileName, size, kind: kind as UploadKind }
}

const NOUNS: Record<UploadKind, string> = { judgments: 'a judgments file', workspace: 'a workspace file' }

/** A file over its kind's bound, refused before a byte of it is sent: its size and the bound, in words. */
function tooLarge(fileName: string, size: number, bound: number, kind: UploadKind): string {
  const most = `${formatBytes(bound)} (${bound.toLocaleString('en-US')} bytes)`
  if (kind === 'workspace') {
    return `"${fileName}" holds ${size.toLocaleString('en-US')} bytes (${formatBytes(size)}); a workspace file may hold at most ${most}, so it was not opened.`
  }
  return `"${fileName}" holds ${size.toLocaleString('en-US')} bytes; a file sent to the app may hold at most ${most}. Split it into smaller files.`
}

/** The data folder would not take the file (full, read-only): said as such, not as an internal error. */
function unstorable(fileName: string, error: unknown): UploadRefused {
  const code = (error as NodeJS.ErrnoException).code ?? 'an error of the file system'
  return new UploadRefused(code === 'ENOSPC' ? 507 : 500, `"${fileName}" could not be kept in the app's data folder while it arrives (${code}); the upload was dropped.`)
}

function digestOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url')
}
