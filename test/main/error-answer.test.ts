import { describe, expect, it } from 'vitest'
import { sentOption, serviceError, unreadableBody } from '../../src/main/http/error-answer'
import type { HttpResponse } from '../../src/main/http/http-client'

/** An error status of the Query API read into the error the app reports: the sentence, the kind, the server's words apart. */

const answer = (status: number, body: string, contentType = 'application/json'): HttpResponse =>
  ({ status, headers: { 'content-type': contentType }, body: Buffer.from(body), timings: { connectMs: 0, firstByteMs: 0, totalMs: 0 } }) as HttpResponse

describe('error answer', () => {
  it("reports a 404 with the server's message, the kind the official clients throw, and what to check", () => {
    const error = serviceError(answer(404, '{"message":"No such api \\"plaices\\""}'), 'application/json', { workspace: 'world', api: 'plaices' })
    expect(error.toIpc()).toEqual({
      code: 'http',
      message: 'The service answered 404: No such api "plaices". Check the API name ("plaices") and the workspace ("world"): the service has no such API in that workspace.',
      status: 404,
      serviceError: 'api-not-found',
      serverMessage: 'No such api "plaices"',
    })
  })

  it('a 401 is an auth error; a body with no message is said as what it is, never shown', () => {
    const refused = serviceError(answer(401, '<html>login</html>', 'text/html'), 'text/html', { tokenSent: false })
    expect(refused.code).toBe('auth')
    expect(refused.message).toBe(
      'The service answered 401: no readable message (the body is an HTML page). This API needs a token and none was sent: give the connection a client ID and secret (with the Token request and auth URL its deployment uses).',
    )
    expect(refused.extra.serverMessage).toBeUndefined()
    expect(unreadableBody(answer(502, ''))).toBe('no message (the body is empty).')
    expect(unreadableBody(answer(502, '\u0000\u0001\u0002', 'application/octet-stream'))).toBe('no readable message (the body is 3 bytes of application/octet-stream).')
    expect(unreadableBody(answer(502, '\u0000', ''))).toBe('no readable message (the body is 1 bytes of unknown type).')
  })

  it('reads an option as the URL sent it, decoded; undefined when it sent none', () => {
    const url = 'http://127.0.0.1/query/world/places/e/search/p/query/x/results?count=10&config=my+conf%2F1&flag#config=frag'
    expect(sentOption(url, 'config')).toBe('my conf/1')
    expect(sentOption(url, 'flag')).toBe('')
    expect(sentOption(url, 'offset')).toBeUndefined()
    expect(sentOption('http://127.0.0.1/q', 'config')).toBeUndefined()
    // A value that is not valid percent-encoding stays as sent.
    expect(sentOption('http://x/?config=%E0%A4%A', 'config')).toBe('%E0%A4%A')
  })
})
