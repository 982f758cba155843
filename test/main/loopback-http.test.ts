import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodePathPart, readBody, readBodyBytes, send, sendJson } from '../../src/main/host/loopback-http'
import { CONTENT_SECURITY_POLICY } from '../../src/shared/security/content-security-policy'
import { startHostRoute, type HostRoute } from '../fixtures/host-route'

/**
 * The browser host's HTTP basics over a real server on 127.0.0.1: every
 * answer with the security headers; a body read up to its bound, and one
 * over it drained unread so the client still reads why.
 */

describe('loopback http', () => {
  let server: HostRoute
  beforeAll(async () => {
    server = await startHostRoute(async (req, res) => {
      if (req.url === '/text') {
        const body = await readBody(req, 10)
        return body === null ? sendJson(res, 413, JSON.stringify({ message: 'over 10 bytes' })) : send(res, 200, { 'content-type': 'text/plain' }, `read: ${body}`)
      }
      const bytes = await readBodyBytes(req, 4)
      sendJson(res, 200, JSON.stringify({ bytes: bytes === null ? null : [...bytes] }))
    })
  })
  afterAll(() => server.close())

  it('answers with the security headers beside its own', async () => {
    const answer = await server.send('/text', { method: 'POST', body: 'São' })
    expect(answer.status).toBe(200)
    expect(answer.body.toString()).toBe('read: São')
    expect(answer.headers).toMatchObject({
      'content-type': 'text/plain',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
  })

  it('reads a body up to its bound, exactly; one byte over is not read, and the client still gets the answer', async () => {
    // "São" is 4 bytes: exactly the bound.
    expect(JSON.parse((await server.send('/bytes', { method: 'POST', body: 'São' })).body.toString())).toEqual({ bytes: [0x53, 0xc3, 0xa3, 0x6f] })
    expect(JSON.parse((await server.send('/bytes', { method: 'POST', body: '12345' })).body.toString())).toEqual({ bytes: null })
    expect(JSON.parse((await server.send('/bytes', { method: 'POST' })).body.toString())).toEqual({ bytes: [] })
    // A large body over the bound: drained, the answer arrives whole, with its JSON type.
    const over = await server.send('/text', { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) })
    expect([over.status, over.headers['content-type'], JSON.parse(over.body.toString())]).toEqual([413, 'application/json; charset=utf-8', { message: 'over 10 bytes' }])
  })

  it('decodes a path part, and gives null for a broken escape rather than throwing', () => {
    expect(decodePathPart('app%3Ainfo')).toBe('app:info')
    expect(decodePathPart('S%C3%A3o%20Paulo')).toBe('São Paulo')
    for (const broken of ['%ff', '%E0%A4%A', '%']) expect(decodePathPart(broken), broken).toBeNull()
  })
})
