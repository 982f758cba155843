import { randomBytes, timingSafeEqual } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve, sep } from 'node:path'
import type { Dispatch } from '../ipc/dispatch'
import { CONTENT_SECURITY_POLICY } from '../../shared/security/content-security-policy'

export const KEY_HEADER = 'x-explorer-key'
const MAX_BODY_BYTES = 1024 * 1024

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

export interface BrowserHost {
  /** The address to open; its fragment carries the launch key, which no server log sees. */
  url: string
  origin: string
  key: string
  close(): Promise<void>
}

/**
 * Serves the built renderer and the handler table over loopback HTTP where no
 * Electron runtime exists. Every IPC call must carry this launch's secret key,
 * and a Host or Origin other than our own loopback address is refused (DNS
 * rebinding, other local sites).
 */
export async function startBrowserHost(options: { dispatch: Dispatch; rendererDir: string; port?: number }): Promise<BrowserHost> {
  const key = randomBytes(32).toString('base64url')
  const keyBuffer = Buffer.from(key)
  const rendererDir = resolve(options.rendererDir)
  let allowedHosts = new Set<string>()

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { 'content-type': 'text/plain' }, 'Internal error')
      else res.destroy()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts.has(req.headers.host ?? '')) return send(res, 403, {}, 'Forbidden host')
    const origin = req.headers.origin
    if (origin !== undefined && !allowedHosts.has(origin.replace(/^http:\/\//, ''))) {
      return send(res, 403, {}, 'Forbidden origin')
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (path.startsWith('/ipc/')) return handleIpc(req, res, decodeURIComponent(path.slice(5)))
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, {}, 'Method not allowed')
    return serveStatic(res, path)
  }

  async function handleIpc(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, {}, 'Method not allowed')
    const given = Buffer.from(String(req.headers[KEY_HEADER] ?? ''))
    if (given.length !== keyBuffer.length || !timingSafeEqual(given, keyBuffer)) {
      return send(res, 401, { 'content-type': 'application/json' }, JSON.stringify({ message: 'Missing or wrong launch key' }))
    }
    const body = await readBody(req)
    if (body === null) return send(res, 413, {}, 'Request too large')
    let payload: unknown
    try {
      payload = JSON.parse(body)
    } catch {
      payload = Symbol('invalid')
    }
    const result =
      typeof payload === 'symbol'
        ? { ok: false, error: { code: 'validation', message: 'The request body is not valid JSON.' } }
        : await options.dispatch(channel, payload)
    send(res, 200, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(result))
  }

  async function serveStatic(res: ServerResponse, path: string): Promise<void> {
    const relative = path === '/' ? 'index.html' : decodeURIComponent(path).replace(/^\/+/, '')
    const file = normalize(join(rendererDir, relative))
    if (!file.startsWith(rendererDir + sep)) return send(res, 404, {}, 'Not found')
    try {
      const content = await fs.readFile(file)
      send(res, 200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' }, content)
    } catch {
      send(res, 404, {}, 'Not found')
    }
  }

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolvePromise())
  })
  const { port } = server.address() as AddressInfo
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`])
  const origin = `http://127.0.0.1:${port}`
  return {
    url: `${origin}/#key=${key}`,
    origin,
    key,
    close: () =>
      new Promise((resolvePromise) => {
        server.closeAllConnections()
        server.close(() => resolvePromise())
      }),
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers })
  res.end(body)
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data')
        req.resume()
        resolvePromise(null)
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolvePromise(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
