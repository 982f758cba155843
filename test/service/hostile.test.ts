import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PLACES, openSession, type Session } from './service-session'

/**
 * Hostile input: every case gets a clear 4xx with a JSON body, never a crash,
 * and the service answers the next request normally. (A fault of the
 * service's own, a 500 that hides its details: server.test.ts.)
 */

let s: Session
let origin: string
let token: string
beforeAll(async () => {
  s = await openSession()
  origin = s.service.queryUrl.replace(/\/query$/, '')
  token = await s.token()
})
afterAll(() => s.service.close())
afterEach(async () => {
  const next = await s.get(`${PLACES}/e/search/p/query/paris/results?count=1`)
  expect(next.status).toBe(200)
  expect(next.json().items[0].tuple[0].attributes.name).toBe('Paris')
})

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/** A request whose path is sent exactly as written (fetch would normalise `..`). */
function raw(path: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Raw> {
  const url = new URL(origin)
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: { Authorization: `Bearer ${token}`, ...options.headers } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }))
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

/** Sends bytes over a bare socket and collects whatever comes back until the server closes. */
function socketExchange(chunks: string[], pauseMs: number, to = origin): Promise<string> {
  const url = new URL(to)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let received = ''
    socket.on('data', (data) => (received += data.toString('utf8')))
    socket.on('close', () => resolve(received))
    socket.on('error', (error) => (received ? resolve(received) : reject(error)))
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return
        socket.write(chunk)
        await new Promise((done) => setTimeout(done, pauseMs))
      }
    })
  })
}

function expectJsonError(answer: Raw, status: number, pattern: RegExp) {
  expect(answer.status, answer.text).toBe(status)
  expect(String(answer.headers['content-type'])).toMatch(/^application\/json/)
  expect(JSON.parse(answer.text).message).toMatch(pattern)
}

describe('hostile paths', () => {
  it('".." as the api, as an endpoint and as a value', async () => {
    expectJsonError(await raw('/query/world/api/../e/search/p/query/x/results'), 404, /^No such api: world\/\.\./)
    expectJsonError(await raw('/query/world/api/../places/e/search/p/query/x/results'), 400, /unexpected path segment "places"/)
    expectJsonError(await raw('/query/world/api/places/e/../results'), 400, /^no endpoint named "\.\."/)
    expectJsonError(await raw('/query/../../etc/passwd'), 404, /^No such api/)
    expect((await raw('/query/world/api/places/e/search/p/query/../results')).status).toBe(200)
  })

  it('%00 in a value or a name', async () => {
    expectJsonError(await raw('/query/world/api/places/e/search/p/query/par%00is/results'), 400, /control character/)
    expectJsonError(await raw('/query/world/api/places/e/sea%00rch/p/query/paris/results'), 400, /^no endpoint/)
    expectJsonError(await raw('/query/wor%00ld/api/places/e/search/p/query/paris/results'), 404, /^No such api/)
  })

  it('broken percent-encoding', async () => {
    expectJsonError(await raw('/query/world/api/places/e/search/p/query/%E0%A4%A/results'), 400, /percent-encoding/)
  })

  it('a 64 KiB value is refused with 400; a URL beyond the header limit gets 431', async () => {
    const long = 'a'.repeat(64 * 1024)
    expectJsonError(await raw(`/query/world/api/places/e/search/p/query/${long}/results`), 400, /65536 characters long; at most 4096/)
    expectJsonError(await raw(`/query/world/api/places/e/search/p/query/${long.repeat(3)}/results`), 431, /^Request header fields too large/)
    expectJsonError(await raw(`/query/world/api/places/e/search/p/query/paris/results?config=${long}`), 404, /^No such workspace configuration/)
  })

  it('1,000 stacked endpoints are refused with 400', async () => {
    const chain = '/e/population/p/min/1'.repeat(1000)
    expectJsonError(await raw(`/query/world/api/places/e/search/p/query/paris${chain}/results`), 400, /stacks 1001 endpoints; at most 100/)
    const deep = '/e/population/p/min/1'.repeat(99)
    expect((await raw(`/query/world/api/places/e/search/p/query/paris${deep}/count`)).status).toBe(200)
  })

  it('garbage that is not HTTP gets a JSON 400', async () => {
    const answer = await socketExchange(['NOT HTTP AT ALL\r\n\r\n'], 10)
    expect(answer).toMatch(/^HTTP\/1.1 400 /)
    expect(answer).toContain('{"message":"Bad request')
  })
})

describe('hostile token requests', () => {
  const post = (body: string | Buffer, type = 'application/json-patch+json') =>
    raw('/auth/api/auth', { method: 'POST', headers: { 'Content-Type': type }, body })

  it('malformed JSON is a 400 that does not echo the body', async () => {
    const answer = await post('{"WorkspaceName": "world", "ClientSecret": "hunter2-secret",')
    expectJsonError(answer, 400, /^The request body is not valid JSON/)
    expect(answer.text).not.toContain('hunter2')
  })

  it('wrong types and shapes are 400s naming the fields', async () => {
    expectJsonError(await post('[1,2,3]'), 400, /must be a JSON object .*not an array/)
    expectJsonError(await post('null'), 400, /not null/)
    expectJsonError(await post('"text"'), 400, /not a string/)
    expectJsonError(
      await post(JSON.stringify({ WorkspaceName: ['world'], ClientId: null, ClientSecret: {}, ForceReauth: 1 })),
      400,
      /WorkspaceName must be a string, not an array; ClientId must be a string, not null; ClientSecret must be a string, not a object; ForceReauth must be a boolean, not a number/,
    )
    expectJsonError(await post('{"__proto__": {"admin": true}}'), 400, /WorkspaceName is missing/)
    expectJsonError(await post('['.repeat(5000) + ']'.repeat(5000)), 400, /not an array/)
  })

  it('an oversized body is refused with 413, declared or streamed', async () => {
    expectJsonError(await post(Buffer.alloc(1024 * 1024, 0x20)), 413, /^Request body too large/)
    const streamed = await socketExchange(
      [
        'POST /auth/api/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        `8000\r\n${' '.repeat(0x8000)}\r\n`,
        '0\r\n\r\n',
      ],
      20,
    )
    expect(streamed).toMatch(/^HTTP\/1.1 413 /)
    expect(streamed).toContain('Request body too large')
  })
})

describe('slow clients', () => {
  // A service of its own with a short request timeout: what these clients send is incomplete
  // however long they wait, so the 408 is certain and nothing races.
  let slow: Session
  beforeAll(async () => {
    slow = await openSession({ requestTimeoutMs: 800 })
  })
  afterAll(() => slow.service.close())
  const slowOrigin = () => slow.service.queryUrl.replace(/\/query$/, '')

  it('a slow client that never finishes its headers gets 408 and is disconnected', async () => {
    const answer = await socketExchange(['GET /query/world/api/places/ HTTP/1.1\r\n', 'Host: x\r\n'], 0, slowOrigin())
    expect(answer).toMatch(/^HTTP\/1.1 408 /)
    expect(answer).toContain('{"message":"Request timeout')
  })

  it('a slow token request body is cut off with 408', async () => {
    const answer = await socketExchange(
      ['POST /auth/api/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"Work', 'spaceName"'],
      0,
      slowOrigin(),
    )
    expect(answer).toMatch(/^HTTP\/1.1 408 /)
  })
})
