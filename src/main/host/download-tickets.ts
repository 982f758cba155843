import { createHash, randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { CONTENT_SECURITY_POLICY } from '../../shared/security/content-security-policy'

/** Long enough to come back to a finished export, short enough that a file nobody fetched does not linger. */
export const DOWNLOAD_LIFETIME_MS = 10 * 60_000
/** Bounds the table (and the folder) however many exports finish unfetched. */
const MAX_TICKETS = 50
export const DOWNLOAD_PATH = '/downloads/'

export interface DownloadFile {
  path: string
  /** The name the browser saves it under. */
  fileName: string
  contentType: string
}

/**
 * One-time addresses for the browser host's downloads. A finished export's
 * file gets a ticket (32 random bytes); the page opens `/downloads/<ticket>`
 * with an `<a download>`, so Chromium's download manager writes the bytes and
 * they never pass through the page's script. Such a link cannot send the
 * session key header, so the ticket itself is the credential: unguessable,
 * good for one GET, gone after DOWNLOAD_LIFETIME_MS together with its file.
 * The table holds digests, as the session table does.
 */
export class DownloadTickets {
  private readonly tickets = new Map<string, { file: DownloadFile; timer: NodeJS.Timeout }>()

  constructor(private readonly lifetimeMs = DOWNLOAD_LIFETIME_MS) {}

  /** A ticket for `file`, which the tickets now own: it is deleted once served or expired. */
  issue(file: DownloadFile): string {
    if (this.tickets.size >= MAX_TICKETS) this.expire(this.tickets.keys().next().value!)
    const ticket = randomBytes(32).toString('base64url')
    const digest = digestOf(ticket)
    const timer = setTimeout(() => this.expire(digest), this.lifetimeMs)
    timer.unref()
    this.tickets.set(digest, { file, timer })
    return ticket
  }

  /** The file of a ticket, once: the ticket is spent by this call. Null for a ticket unknown, spent or expired. */
  take(ticket: string): DownloadFile | null {
    if (ticket.length === 0 || ticket.length > 100) return null
    const digest = digestOf(ticket)
    const entry = this.tickets.get(digest)
    if (!entry) return null
    clearTimeout(entry.timer)
    this.tickets.delete(digest)
    return entry.file
  }

  get size(): number {
    return this.tickets.size
  }

  /** Deletes every file not fetched (the app is stopping). */
  async close(): Promise<void> {
    const files = [...this.tickets.values()]
    this.tickets.clear()
    for (const { timer } of files) clearTimeout(timer)
    await Promise.all(files.map(({ file }) => rm(file.path, { force: true }).catch(() => undefined)))
  }

  private expire(digest: string): void {
    const entry = this.tickets.get(digest)
    if (!entry) return
    clearTimeout(entry.timer)
    this.tickets.delete(digest)
    void rm(entry.file.path, { force: true }).catch(() => undefined)
  }
}

/**
 * Answers `GET /downloads/<ticket>`: the file as an attachment, once, then
 * deletes it. An unknown, spent or expired ticket is a 404 that says no more.
 */
export async function serveDownload(req: IncomingMessage, res: ServerResponse, tickets: DownloadTickets, ticket: string): Promise<void> {
  if (req.method !== 'GET') return plain(res, 405, 'Method not allowed')
  const file = tickets.take(ticket)
  if (!file) return plain(res, 404, 'This download was used already or has expired.')
  let size: number
  try {
    size = (await stat(file.path)).size
  } catch {
    return plain(res, 404, 'This download was used already or has expired.')
  }
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(size),
    'content-disposition': contentDisposition(file.fileName),
    'content-security-policy': `${CONTENT_SECURITY_POLICY}; sandbox`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  })
  await new Promise<void>((resolve) => {
    const stream = createReadStream(file.path)
    const finish = () => {
      stream.destroy()
      resolve()
    }
    stream.on('error', () => {
      res.destroy()
      finish()
    })
    res.on('close', finish)
    stream.pipe(res)
  })
  await rm(file.path, { force: true }).catch(() => undefined)
}

/**
 * `attachment` with the name twice: an ASCII fallback with anything a header
 * or a file system might misread replaced, and the UTF-8 name (RFC 6266).
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\w.\- ]+/g, '_').replace(/^[.\s]+/, '').slice(0, 150) || 'download'
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(fileName.slice(0, 150))}`
}

/** encodeURIComponent leaves ' ( ) * as they are; RFC 5987 wants them escaped too. */
function encodeRfc5987(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' })
  res.end(text)
}

function digestOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url')
}
