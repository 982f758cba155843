import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { errors as undiciErrors, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedBeforeAnswer, closedByPeer, describeNetworkError } from '../../src/main/http/network-errors'
import { ExplorerError } from '../../src/shared/ipc/errors'
import { closedPort } from '../fixtures/ports'

/**
 * The sentence for each way a request fails on the network, from the errors
 * undici really gives against real sockets on 127.0.0.1 (refused, reset,
 * not HTTP), and from its timeout errors; never a header or a token.
 */

const SETTINGS = { connectTimeoutMs: 5_000, headersTimeoutMs: 30_000, bodyTimeoutMs: 60_000 }

/** The error undici's request rejects with for `url`. */
async function failureAt(url: string): Promise<unknown> {
  return request(url, { headers: { authorization: 'Bearer never-in-a-sentence' } }).then(
    () => {
      throw new Error('the request succeeded')
    },
    (error: unknown) => error,
  )
}

describe('network errors', () => {
  let raw: Server
  let rawOrigin = ''
  const sockets = new Set<Socket>()
  /** What the raw server does with the next connection. */
  let behaviour: 'reset' | 'not-http' = 'reset'
  beforeAll(async () => {
    raw = createServer((socket) => {
      sockets.add(socket)
      socket.once('data', () => {
        if (behaviour === 'reset') socket.resetAndDestroy()
        else socket.end('SSH-2.0-OpenSSH_9.2\r\n')
      })
    })
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
    rawOrigin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => raw.close(resolve))
  })

  it('a refused connection says whether the service runs and the address is right', async () => {
    const url = new URL(`http://127.0.0.1:${await closedPort()}/query`)
    const error = describeNetworkError(await failureAt(url.href), url, SETTINGS)
    expect(error.toIpc()).toEqual({ code: 'network', message: `Connection refused by ${url.host}: is the service running, and is the address right?` })
  })

  it('a connection reset is closed by the peer; an answer that is not HTTP is a network error naming the host', async () => {
    behaviour = 'reset'
    const url = new URL(`${rawOrigin}/query`)
    const reset = await failureAt(url.href)
    expect(closedByPeer(reset)).toBe(true)
    expect(describeNetworkError(reset, url, SETTINGS).message).toBe(`${url.host} closed the connection before the answer was complete.`)
    behaviour = 'not-http'
    const notHttp = describeNetworkError(await failureAt(url.href), url, SETTINGS)
    // undici 7 gives no HPE_ code when the first line is not HTTP/1.1's: the sentence still says what it means.
    expect(notHttp.toIpc()).toEqual({ code: 'network', message: `${url.host} did not answer with HTTP (is it the right port, or does it expect https?).` })
  })

  it('each timeout names its setting in seconds; a cancel is a cancel', () => {
    const url = new URL('https://query.example.com/q')
    const said = (error: unknown) => describeNetworkError(error, url, SETTINGS).toIpc()
    expect(said(new undiciErrors.ConnectTimeoutError())).toEqual({ code: 'timeout', message: 'Could not connect to query.example.com within 5 s (timeout).' })
    expect(said(new undiciErrors.HeadersTimeoutError())).toEqual({ code: 'timeout', message: 'query.example.com did not answer within 30 s (timeout).' })
    expect(said(new undiciErrors.BodyTimeoutError())).toEqual({ code: 'timeout', message: 'query.example.com stopped sending the answer for 60 s (timeout).' })
    expect(said(new DOMException('aborted', 'AbortError'))).toEqual({ code: 'cancelled', message: 'The request was cancelled.' })
  })

  it('DNS, no route, TLS and the unknown each get their sentence; an ExplorerError passes as it is', () => {
    const url = new URL('https://query.example.com:8443/q')
    const coded = (code: string) => describeNetworkError(Object.assign(new Error('x'), { code }), url, SETTINGS).message
    expect(coded('ENOTFOUND')).toBe('The host name query.example.com could not be resolved (DNS): check the address.')
    expect(coded('ENETUNREACH')).toBe('query.example.com:8443 cannot be reached from this machine (no route).')
    expect(coded('DEPTH_ZERO_SELF_SIGNED_CERT')).toBe('The TLS connection to query.example.com:8443 failed (DEPTH_ZERO_SELF_SIGNED_CERT): the certificate or TLS setup is not accepted.')
    expect(describeNetworkError(Object.assign(new Error('x'), { cause: { code: 'EWEIRD' } }), url, SETTINGS).message).toBe('The request to query.example.com:8443 failed (EWEIRD).')
    const own = new ExplorerError('too_large', 'too big')
    expect(describeNetworkError(own, url, SETTINGS)).toBe(own)
  })

  it('a GET closed twice before its answer says the connection to the service fails', () => {
    expect(closedBeforeAnswer(new URL('http://127.0.0.1:9/q')).toIpc()).toEqual({
      code: 'network',
      message:
        '127.0.0.1:9 closed the connection before answering, and again when the request was sent once more on a fresh connection: the connection to the service fails (a proxy or the service dropping connections?).',
    })
    expect(closedByPeer({ cause: { code: 'EPIPE' } })).toBe(true)
    expect(closedByPeer(new Error('other'))).toBe(false)
    expect(closedByPeer(null)).toBe(false)
  })
})
