import { describe, expect, it } from 'vitest'
import { messageOf, notJson, parseJson, scrubBody, tooDeep } from '../../src/main/http/response-body'

/** A JSON answer parsed with its nesting bounded; an error body's sentence; a body scrubbed of every secret sent. */

const nested = (depth: number) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`)

describe('response body', () => {
  it('parses JSON, and refuses what is not JSON or nested past 64 levels, saying how many bytes came', () => {
    expect(parseJson(Buffer.from('{"items":[1,"é"]}'), 'answer')).toEqual({ items: [1, 'é'] })
    expect(() => parseJson(Buffer.from('<html>'), 'answer')).toThrow(notJson('answer', 6))
    expect(notJson('answer', 6).toIpc()).toEqual({ code: 'bad_response', message: 'The answer is not valid JSON (6 bytes received).' })
    expect(parseJson(nested(64), 'answer')).toBeInstanceOf(Array)
    expect(() => parseJson(nested(65), 'answer')).toThrow("The answer is nested deeper than 64 levels, which no real answer is; it was not read.")
    expect(tooDeep('answer').code).toBe('bad_response')
    // The caller that checks the depth itself reads it whole.
    expect(parseJson(nested(65), 'answer', false)).toBeInstanceOf(Array)
  })

  it("reads an error body's message, or a short plain text, never an HTML page", () => {
    expect(messageOf(Buffer.from(' {"message":"No such api \\"x\\"","code":7} '))).toBe('No such api "x"')
    expect(messageOf(Buffer.from(JSON.stringify({ message: 'm'.repeat(1_200) })))).toHaveLength(1_000)
    expect(messageOf(Buffer.from('Service Unavailable\n'))).toBe('Service Unavailable')
    expect(messageOf(Buffer.from('<html><body>502 Bad Gateway</body></html>'))).toBeNull()
    expect(messageOf(Buffer.from('x'.repeat(301)))).toBeNull()
    expect(messageOf(Buffer.from(''))).toBeNull()
    // JSON without a message string: the text itself is short and not markup.
    expect(messageOf(Buffer.from('{"error":1}'))).toBe('{"error":1}')
  })

  it('replaces every spelling of a secret sent (as written, base64, base64url), and leaves the other bytes as they were', () => {
    const token = 'tok+en/secret?'
    // base64 dG9rK2VuL3NlY3JldD8=, base64url dG9rK2VuL3NlY3JldD8
    const b64 = Buffer.from(token).toString('base64')
    const b64url = Buffer.from(token).toString('base64url')
    const body = Buffer.concat([Buffer.from(`echo ${token} ${b64} ${b64url} `), Buffer.from([0xff, 0xfe]), Buffer.from(' São')])
    const scrubbed = scrubBody(body, [token])
    // The last base64 letter of a partly filled group mixes in what follows the secret: it stays, as redaction.ts says.
    expect(scrubbed.subarray(0, -7).toString('latin1')).toBe('echo [redacted] [redacted]8= [redacted]8 ')
    expect(scrubbed.subarray(-7)).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(' São')]))
    // Nothing sent found: the very same buffer.
    expect(scrubBody(body, ['absent-secret'])).toBe(body)
  })
})
