import { describe, expect, it } from 'vitest'
import { describeServiceError, MAX_QUOTED_MESSAGE, serviceErrorKind, unknownEndpoint } from '../../src/shared/query/error-answer-text'

/** The kinds as the TypeScript client's handleResponse throws them, in its order, and the sentences' safety. */

describe('serviceErrorKind', () => {
  it('types statuses and messages as the official clients do', () => {
    const table: [number, string | null, string][] = [
      [401, 'anything at all', 'unauthorized'],
      [401, null, 'unauthorized'],
      [400, 'no endpoint named "x"', 'endpoint-not-found'],
      // includes, as the TypeScript client checks it (the Python client: startsWith)
      [400, 'The request names no endpoint', 'endpoint-not-found'],
      [400, 'No endpoint', 'unknown'],
      [400, 'Option count is not a number', 'unknown'],
      [500, null, 'server-error'],
      [404, 'No such api: w/a', 'api-not-found'],
      [404, 'No such workspace configuration: w/c', 'config-not-found'],
      [404, 'Not Found', 'unknown'],
      [404, null, 'unknown'],
      [403, 'No such api', 'unknown'],
      [503, 'Query over its time budget', 'unknown'],
    ]
    for (const [status, message, kind] of table) expect(serviceErrorKind(status, message), `${status} ${message}`).toBe(kind)
  })
})

describe('describeServiceError', () => {
  it('quotes a long message cut, with its controls visible', () => {
    const long = `x${'y'.repeat(5_000)}`
    const { message } = describeServiceError(418, long)
    expect(message).toBe(`The service answered 418: x${'y'.repeat(MAX_QUOTED_MESSAGE - 1)}…`)
    const hostile = describeServiceError(400, 'bad\u001b]0;owned\u0007 \r✓ passed\n\u202etxt').message
    expect(hostile).toBe('The service answered 400: bad\\x1b]0;owned\\x07 \\r✓ passed\\n⟨U+202E⟩txt')
  })

  it('names the endpoint of the chain the message names, else lists them', () => {
    expect(unknownEndpoint('no endpoint named "b" in api "a" (it has: a, c)', ['a', 'b'])).toBe('b')
    expect(unknownEndpoint('no endpoint b', ['search', 'b', 'country:FILTER'])).toBe('b')
    expect(unknownEndpoint('no endpoint here', ['only'])).toBe('only')
    expect(unknownEndpoint('no endpoint here', ['a', 'b'])).toBeNull()
    expect(describeServiceError(400, 'no endpoint here', { api: 'p', endpoints: ['a', 'b'] }).message).toBe(
      'The service answered 400: no endpoint here. Check the endpoint names of the chain ("a", "b"): API "p" lacks one of them.',
    )
  })

  it('says the config was left out when none was sent', () => {
    expect(describeServiceError(404, 'No such workspace configuration: w/default', { workspace: 'w' }).message).toBe(
      'The service answered 404: No such workspace configuration: w/default. Check the configuration: none was sent, so the service looked for its default, which workspace "w" does not have.',
    )
  })

  it('gives 401 and 403 the auth code, the rest http', () => {
    expect(describeServiceError(401, null).code).toBe('auth')
    expect(describeServiceError(403, 'Forbidden').code).toBe('auth')
    expect(describeServiceError(404, 'No such api').code).toBe('http')
  })
})
