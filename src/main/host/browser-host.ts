import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import { SET_FORM_MESSAGE } from '../../shared/ipc/relevance-contract'
import { UPLOAD_PATH } from '../../shared/ipc/uploads'
import type { Dispatch } from '../ipc/dispatch'
import type { Logger } from '../logging/logger'
import { DOWNLOAD_PATH, serveDownload, type DownloadTickets } from './download-tickets'
import { createLaunchCodes } from './launch-codes'
import { decodePathPart, readBody, send, sendJson } from './loopback-http'
import { serveRendererFile } from './renderer-files'
import { serveUpload, type UploadTickets } from './upload-tickets'

export const KEY_HEADER = 'x-explorer-key'
const MAX_BODY_BYTES = 1024 * 1024
const MAX_SESSION_BODY_BYTES = 4 * 1024

export interface BrowserHost {
  origin: string
  /**
   * A fresh address that opens one page. Its fragment (which no server log
   * sees) carries a one-time code: a URL lands in `ps` and history, so it
   * never holds the session key itself.
   */
  pageUrl(): string
  /** Connections the server holds open: a client that hung up is gone from them once the host has dealt with it. */
  openConnections(): Promise<number>
  close(): Promise<void>
}

export interface BrowserHostOptions {
  dispatch: Dispatch
  rendererDir: string
  port?: number
  log: Pick<Logger, 'info' | 'error'>
  /** Finished exports, served once each at `/downloads/<ticket>` (shared with the app core that issues them). */
  downloads?: DownloadTickets | null
  /** Files the page sends, in parts, to `/uploads` (shared with the app core, whose channels read them by ticket). */
  uploads?: UploadTickets | null
}

/**
 * Serves the built renderer and the handler table over loopback HTTP where no
 * Electron runtime exists. A page trades its one-time code (POST /session) for
 * a session key that every IPC call must carry; a Host or Origin other than
 * our own loopback address is refused (DNS rebinding, other local sites).
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { log } = options
  const codes = createLaunchCodes()
  const rendererDir = resolve(options.rendererDir)
  let allowedHosts = new Set<string>()
  let origin = ''

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A client that hung up mid-request (a closed tab) gets no answer; nothing here broke, so nothing is logged.
      if (req.socket.destroyed) return
      // A download's or an upload's path is its ticket: never written to the log.
      const path = loggedPath(pathOf(req))
      log.error(`browser host: ${req.method} ${path} failed`, error)
      if (!res.headersSent) send(res, 500, { 'content-type': 'text/plain' }, 'Internal error')
      else res.destroy()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts.has(req.headers.host ?? '')) return send(res, 403, {}, 'Forbidden host')
    const requestOrigin = req.headers.origin
    if (requestOrigin !== undefined && !allowedHosts.has(requestOrigin.replace(/^http:\/\//, ''))) {
      return send(res, 403, {}, 'Forbidden origin')
    }
    const path = pathOf(req)
    if (path === '/session') return openSession(req, res)
    if (path === '/session/code') return mintCode(req, res)
    // No session key here: an <a download> cannot send one. The ticket is the credential (one-time, 32 random bytes).
    if (path.startsWith(DOWNLOAD_PATH)) {
      if (!options.downloads) return send(res, 404, {}, 'Not found')
      return serveDownload(req, res, options.downloads, path.slice(DOWNLOAD_PATH.length))
    }
    // An upload carries the session key as an IPC call does, besides its ticket: a page's ticket is of no use to another.
    if (path === UPLOAD_PATH || path.startsWith(`${UPLOAD_PATH}/`)) {
      if (!options.uploads) return sendJson(res, 404, JSON.stringify({ message: 'This app host takes no files.' }))
      if (!hasSessionKey(req)) return refuseKey(res)
      return serveUpload(req, res, options.uploads, path.slice(UPLOAD_PATH.length), String(req.headers[KEY_HEADER]))
    }
    if (path.startsWith('/ipc/')) {
      const channel = decodePathPart(path.slice(5))
      if (channel === null) return send(res, 400, {}, 'Bad request path')
      return handleIpc(req, res, channel)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, {}, 'Method not allowed')
    return serveRendererFile(res, rendererDir, path)
  }

  async function openSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, {}, 'Method not allowed')
    const body = await readBody(req, MAX_SESSION_BODY_BYTES)
    if (body === null) return sendJson(res, 413, JSON.stringify({ message: `The request that opens a session may hold at most ${formatBytes(MAX_SESSION_BODY_BYTES)}.` }))
    const code = codeIn(body)
    if (code === null) return sendJson(res, 400, JSON.stringify({ message: 'Send {"code": "…"} from the page address.' }))
    const key = codes.redeem(code)
    if (key === null) return sendJson(res, 401, JSON.stringify({ message: 'This address was used already or has expired.' }))
    log.info('browser session opened')
    sendJson(res, 200, JSON.stringify({ key }))
  }

  function mintCode(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') return send(res, 405, {}, 'Method not allowed')
    if (!hasSessionKey(req)) return refuseKey(res)
    sendJson(res, 200, JSON.stringify({ url: pageUrl() }))
  }

  async function handleIpc(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, {}, 'Method not allowed')
    if (!hasSessionKey(req)) return refuseKey(res)
    // A closed tab closes its request: whatever the call still does upstream is for nobody.
    const caller = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) caller.abort()
    })
    // No message carries a file: a workspace or judgments file comes through the upload route (upload-tickets.ts).
    const limit = channel === 'sets:save' ? SET_FORM_MESSAGE.bytes : MAX_BODY_BYTES
    const body = await readBody(req, limit)
    if (body === null) {
      const name = JSON.stringify(channel.slice(0, 80))
      return sendJson(res, 413, JSON.stringify({ message: `The message to ${name} is larger than the app host takes (${formatBytes(limit)}); it was not read.` }))
    }
    let payload: unknown
    try {
      payload = JSON.parse(body)
    } catch {
      payload = Symbol('invalid')
    }
    const result =
      typeof payload === 'symbol'
        ? { ok: false, error: { code: 'validation', message: 'The request body is not valid JSON.' } }
        : await options.dispatch(channel, payload, { signal: caller.signal })
    sendJson(res, 200, encodeReply(channel, result))
  }

  /** A reply JSON cannot write (nested too deeply, a BigInt) still answers as data, so the page can say what happened. */
  function encodeReply(channel: string, result: unknown): string {
    try {
      const text = JSON.stringify(result)
      if (text === undefined) throw new TypeError('the reply is not a JSON value')
      return text
    } catch (error) {
      const name = JSON.stringify(channel.slice(0, 80))
      log.error(`browser host: the reply of ${name} could not be written as JSON`, error)
      return JSON.stringify({
        ok: false,
        error: { code: 'internal', message: `The reply of ${name} could not be sent to this window (it cannot be written as JSON); the details are in the log.` },
      })
    }
  }

  function hasSessionKey(req: IncomingMessage): boolean {
    return codes.isSessionKey(String(req.headers[KEY_HEADER] ?? ''))
  }

  function pageUrl(): string {
    return `${origin}/#code=${codes.mint()}`
  }

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolvePromise())
  })
  const { port } = server.address() as AddressInfo
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`])
  origin = `http://127.0.0.1:${port}`
  return {
    origin,
    pageUrl,
    openConnections: () => new Promise((resolvePromise, reject) => server.getConnections((error, count) => (error ? reject(error) : resolvePromise(count)))),
    close: () =>
      new Promise((resolvePromise) => {
        server.closeAllConnections()
        server.close(() => resolvePromise())
      }),
  }
}

function loggedPath(path: string): string {
  if (path.startsWith(DOWNLOAD_PATH)) return `${DOWNLOAD_PATH}…`
  if (path.startsWith(`${UPLOAD_PATH}/`)) return `${UPLOAD_PATH}/…`
  return path.slice(0, 200)
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0] ?? '/'
}

function refuseKey(res: ServerResponse): void {
  sendJson(res, 401, JSON.stringify({ message: 'Missing or wrong session key' }))
}

function codeIn(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body)
    const code = typeof parsed === 'object' && parsed !== null ? (parsed as { code?: unknown }).code : undefined
    return typeof code === 'string' && code.length > 0 && code.length <= 200 ? code : null
  } catch {
    return null
  }
}
