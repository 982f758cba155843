import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { SECRET_VARIABLE } from '../../src/shared/copy-as/copy-plan'
import { pythonText } from '../../src/shared/copy-as/python-text'
import type { QueryRequest } from '../../src/shared/query/model'
import { HOSTILE, connection, request, sent } from '../fixtures/copy-as'

/**
 * "Copy as Python": a program for the official client, or requests to the
 * exact URL where the client cannot write the request; how the token is got
 * (the client's Authentication, or a stand-in for the JSON token route); and
 * that every value stays inside its literal (python3 parses the text).
 * test/conformance runs these programs against real services.
 */

/** A request the client can write itself: no context step. */
const plain: QueryRequest = { ...request, steps: [{ endpoint: 'search', parameters: { query: 'san' } }] }

/** python3's verdict on the text's syntax: '' when it parses. */
const syntaxError = (text: string) => {
  const run = spawnSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: text, encoding: 'utf8' })
  return run.status === 0 ? '' : run.stderr || `python3 did not run: ${run.error?.message}`
}

describe('Python text', () => {
  it('carries the chain and options as string literals that keep hostile text inside', () => {
    const hostileRequest: QueryRequest = { ...request, steps: [{ endpoint: 'search', parameters: { query: HOSTILE } }] }
    const py = pythonText(connection, hostileRequest)
    // The Python client keeps `/` in values unencoded: the program sends the exact URL with requests instead.
    expect(py).toContain('import requests')
    expect(py).toContain(`os.environ.get("${SECRET_VARIABLE}")`)
    expect(py).toContain(`requests.get(${JSON.stringify(sent(connection.queryUrl, hostileRequest))}`)
    const plainText = pythonText(connection, { ...request, steps: [{ endpoint: 'search', parameters: { query: 'it\'s "x"\nnext line' } }] })
    expect(plainText).toContain('from spinque_query_api import Api, Query, RequestType')
    expect(plainText).toContain(`Query(endpoint="search", parameters=[("query", "it's \\"x\\"\\nnext line")])`)
    expect(plainText.split('\n').some((line) => line.startsWith('next line'))).toBe(false)
    expect(py.split('\n').some((line) => line.startsWith('next line'))).toBe(false)
    expect(syntaxError(py)).toBe('')
    expect(syntaxError(plainText)).toBe('')
  })

  it('a public API (no client ID) gets no authentication, and imports neither os nor the secret', () => {
    const text = pythonText({ ...connection, clientId: '' }, plain)
    expect(text).not.toContain('authentication')
    expect(text).not.toContain('import os')
    expect(text).not.toContain(SECRET_VARIABLE)
    expect(syntaxError(text)).toBe('')
  })

  it("the JSON token route gets a stand-in with the client's get_access_token(), posting to /api/auth", () => {
    const text = pythonText(connection, plain)
    expect(text).toContain('import time')
    expect(text).toContain('class JsonTokenRoute:')
    expect(text).toContain(`            response = requests.post("https://auth.example.org/api/auth", data=body,`)
    expect(text).toContain('authentication = JsonTokenRoute(client_secret)')
    expect(text).toContain('from spinque_query_api import Api, Query, RequestType')
    expect(text).toContain('    authentication=authentication,')
    expect(syntaxError(text)).toBe('')
  })

  it("OAuth uses the client's Authentication, with the audience as its base_url", () => {
    const text = pythonText({ ...connection, tokenRequest: 'oauth', audience: 'urn:places' }, { ...plain, responseType: 'statistics' })
    expect(text).toContain('from spinque_query_api import Api, Authentication, Query, RequestType')
    expect(text).toContain('    base_url="urn:places",\n    auth_server="https://auth.example.org",')
    expect(text).toContain('options = {"count": "20", "offset": "40"}')
    expect(text).toContain('answer = api.fetch(queries, options, RequestType.STATISTICS)')
    expect(text).not.toContain('JsonTokenRoute')
    expect(syntaxError(text)).toBe('')
  })

  it('a response type the client does not ask is sent with requests, the reason in a comment', () => {
    const text = pythonText({ ...connection, tokenRequest: 'oauth' }, { ...plain, responseType: 'count' })
    expect(text).toContain('# The client cannot write this request itself: it asks only results and statistics, not count.')
    expect(text).toContain('token, _expires = authentication.get_access_token()')
    expect(text).toContain(`response = requests.get(${JSON.stringify(sent(connection.queryUrl, { ...plain, responseType: 'count' }))}, headers={"Authorization": f"Bearer {token}"})`)
    expect(text).not.toContain('api = Api(')
    expect(syntaxError(text)).toBe('')
  })
})
