import type { IncomingMessage } from 'node:http'
import { ServiceError } from '../refusal'

/** Reads a request body up to a cap; a larger one is refused (413) without being buffered. */

export const BODY_LIMIT_BYTES = 16 * 1024

export function tooLarge(): ServiceError {
  return new ServiceError(413, `Request body too large: at most ${BODY_LIMIT_BYTES} bytes are accepted`, { Connection: 'close' })
}

export function readBody(request: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        request.off('data', onData)
        // Keep draining so the client can read the answer instead of seeing a reset.
        request.resume()
        reject(tooLarge())
        return
      }
      chunks.push(chunk)
    }
    request.on('data', onData)
    const incomplete = () => new ServiceError(400, 'The request body ended before it was complete')
    request.once('end', () => resolve(Buffer.concat(chunks)))
    // A client that hangs up halfway makes Node emit "aborted" before "close": that is the client's doing, not a fault.
    request.once('error', (error) => reject(request.complete ? error : incomplete()))
    request.once('close', () => {
      if (!request.complete) reject(incomplete())
    })
  })
}
