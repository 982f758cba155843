import type { IncomingMessage, ServerResponse } from 'node:http'
import { CONTENT_SECURITY_POLICY } from '../../shared/security/content-security-policy'

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

export function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers })
  res.end(body)
}

export function sendJson(res: ServerResponse, status: number, body: string): void {
  send(res, status, { 'content-type': 'application/json; charset=utf-8' }, body)
}

/** The body as text, or null when it is over `limit` bytes (the rest is drained, unread). */
export async function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const bytes = await readBodyBytes(req, limit)
  return bytes === null ? null : bytes.toString('utf8')
}

/**
 * The body's bytes, or null when it is over `limit` bytes. The rest is
 * drained unread rather than the socket closed, so the client still reads
 * the answer that says why.
 */
export function readBodyBytes(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.removeAllListeners('data')
        req.resume()
        resolvePromise(null)
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolvePromise(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** decodeURIComponent throws on a malformed escape (`%ff`, `%E0%A4%A`): that is the client's mistake, not ours. */
export function decodePathPart(part: string): string | null {
  try {
    return decodeURIComponent(part)
  } catch {
    return null
  }
}
