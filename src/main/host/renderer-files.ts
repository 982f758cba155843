import { promises as fs } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { decodePathPart, send } from './loopback-http'

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

/** Answers a GET for a file of the built renderer; nothing outside `rendererDir` (an absolute, resolved path). */
export async function serveRendererFile(res: ServerResponse, rendererDir: string, path: string): Promise<void> {
  const decoded = path === '/' ? 'index.html' : decodePathPart(path)
  if (decoded === null) return send(res, 400, {}, 'Bad request path')
  const file = normalize(join(rendererDir, decoded.replace(/^\/+/, '')))
  if (!file.startsWith(rendererDir + sep)) return send(res, 404, {}, 'Not found')
  try {
    const content = await fs.readFile(file)
    send(res, 200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' }, content)
  } catch {
    send(res, 404, {}, 'Not found')
  }
}
