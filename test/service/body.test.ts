import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BODY_LIMIT_BYTES, readBody } from '../../src/service/http/body'
import { jsonReply } from '../../src/service/http/reply'
import { ServiceError } from '../../src/service/refusal'
import type { HostRoute } from '../fixtures/host-route'
import { startRouteServer } from '../fixtures/route-server'

/**
 * A request body read up to a cap: a larger one is refused (413) without
 * being buffered, whether its length is declared or it just keeps coming.
 * Over real HTTP on 127.0.0.1.
 */

let server: HostRoute
beforeAll(async () => {
  // A route that answers with the body's length, read with a cap of 1 KiB.
  server = await startRouteServer(async (request) => jsonReply(200, { bytes: (await readBody(request, 1024)).length }))
})
afterAll(() => server?.close())

describe('readBody', () => {
  it('reads a body up to the cap, and an empty one', async () => {
    for (const size of [0, 10, 1024]) {
      const reply = await fetch(server.origin, { method: 'POST', body: 'x'.repeat(size) })
      expect(await reply.json()).toEqual({ bytes: size })
    }
  })

  it('refuses a declared length past the cap with 413 at once, closing the connection', async () => {
    const reply = await fetch(server.origin, { method: 'POST', body: 'x'.repeat(1025) })
    expect(reply.status).toBe(413)
    expect(reply.headers.get('connection')).toBe('close')
    expect(await reply.json()).toEqual({ message: `Request body too large: at most ${BODY_LIMIT_BYTES} bytes are accepted` })
  })

  it('refuses a streamed body once it passes the cap, and the client still reads the answer', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(512).fill(120))
        controller.close()
      },
    })
    const reply = await fetch(server.origin, { method: 'POST', body: stream, duplex: 'half' } as RequestInit)
    expect(reply.status).toBe(413)
    expect(((await reply.json()) as { message: string }).message).toMatch(/^Request body too large/)
  })

  it('refuses a body the client stops sending halfway (it hung up) as incomplete, never as a fault of the service', async () => {
    let settled!: (outcome: unknown) => void
    const outcome = new Promise((resolve) => (settled = resolve))
    const halfway = await startRouteServer(async (request) => {
      await readBody(request).then(settled, settled)
      return jsonReply(200, {})
    })
    try {
      const sent = httpRequest(`${halfway.origin}/`, { method: 'POST', headers: { 'Content-Length': '100' } })
      sent.on('error', () => {})
      sent.write('{"WorkspaceName":', () => setImmediate(() => sent.destroy()))
      const error = await outcome
      expect(error).toBeInstanceOf(ServiceError)
      expect((error as ServiceError).message).toBe('The request body ended before it was complete')
    } finally {
      await halfway.close()
    }
  })
})
