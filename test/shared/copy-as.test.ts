import { execFileSync, spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { SECRET_VARIABLE, copyAsText, curlText, pythonText, shellQuote, typeScriptText, type CopyAsConnection } from '../../src/shared/copy-as/copy-as'
import type { QueryRequest } from '../../src/shared/query/model'
import { buildUrl } from '../../src/shared/query/url'

/** The texts of "Copy as": what they carry, what they never carry, and that a hostile value cannot escape its quotes. */

const HOSTILE = `it's "$HOME" \`touch /tmp/pwned\` $(id)\nnext line \\ %s`

const connection: CopyAsConnection = {
  authUrl: 'https://auth.example.org/',
  queryUrl: 'https://query.example.org/rest',
  version: '4',
  workspace: 'world',
  api: 'places',
  config: 'default',
  clientId: 'client-42',
}

const request: QueryRequest = {
  workspace: 'world',
  api: 'places',
  steps: [{ endpoint: 'search', parameters: { query: 'san' } }, { context: { lang: 'en' } }, { endpoint: 'country:FILTER', parameters: { value: 'ES' } }],
  responseType: 'results',
  options: { count: 20, offset: 40 },
}

/** The URL the app sends: the connection's version and config filled in (config always). */
const sent = (base: string, r: QueryRequest) => buildUrl(base, { ...r, version: '4', options: { config: 'default', ...r.options } })

const bashPrints = (script: string, env: Record<string, string> = {}) =>
  execFileSync('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' })

/** The curl text up to its token request, printing what that request was given. */
const tokenRequestOnly = (text: string) => `${text.slice(0, text.indexOf('\nTOKEN=')).replace(/^TOKEN_REPLY=\$\(/m, 'OUT=$(')}\nprintf %s "$OUT"`

describe('copy as', () => {
  it('every text names the secret variable (or no secret at all) and never a secret or token', () => {
    for (const kind of ['curl', 'typescript', 'python'] as const) {
      const text = copyAsText(kind, connection, request)
      expect(text).toContain(SECRET_VARIABLE)
      expect(text).not.toMatch(/Bearer [A-Za-z0-9]/)
      expect(text).toContain('client-42')
    }
    expect(copyAsText('url', connection, request)).toBe(sent(connection.queryUrl, request))
  })

  it('curl asks for a token the way the connection does, then sends the query with $TOKEN', () => {
    const json = curlText(connection, request)
    expect(json).toContain(`'https://auth.example.org/api/auth'`)
    expect(json).toContain('"ForceReauth":false')
    expect(json).toContain(`curl -s -H "Authorization: Bearer $TOKEN" '${sent(connection.queryUrl, request)}'`)
    const oauth = curlText({ ...connection, tokenRequest: 'oauth' }, request)
    expect(oauth).toContain(`'https://auth.example.org/oauth/token'`)
    expect(oauth).toContain(`'grant_type=client_credentials'`)
    expect(oauth).toContain(`"client_secret=$${SECRET_VARIABLE}"`)
  })

  it('a public API (no client ID) gets the query alone, with no token request', () => {
    const text = curlText({ ...connection, clientId: '' }, request)
    expect(text).toBe(`curl -s '${sent(connection.queryUrl, request)}'\n`)
    expect(typeScriptText({ ...connection, clientId: '' }, request)).not.toContain('authentication')
    expect(pythonText({ ...connection, clientId: '' }, request)).not.toContain('authentication')
  })

  it('shell quoting gives bash back a value with quotes, $, backticks and newlines exactly, running nothing', () => {
    expect(bashPrints(`printf '%s' ${shellQuote(HOSTILE)}`)).toBe(HOSTILE)
  })

  it('a hostile client ID and secret reach curl as they are, in both token requests', () => {
    // A stand-in curl prints the token request body or form it was given, so the test needs no server.
    const fakeCurl = `curl() { while [ $# -gt 0 ]; do case "$1" in --data-binary) cat; shift;; --data-urlencode) printf '%s\\n' "$2"; shift;; esac; shift; done; }\n`
    const hostile = { ...connection, clientId: HOSTILE, workspace: HOSTILE }
    const secret = `s3cr"et\\ $x \`y\` %d`
    const body = bashPrints(fakeCurl + tokenRequestOnly(curlText(hostile, request)), {
      [SECRET_VARIABLE]: secret,
    })
    expect(JSON.parse(body)).toEqual({ WorkspaceName: HOSTILE, ClientId: HOSTILE, ClientSecret: secret, ForceReauth: false })
    const form = bashPrints(
      fakeCurl + tokenRequestOnly(curlText({ ...hostile, tokenRequest: 'oauth' }, request)),
      { [SECRET_VARIABLE]: secret },
    )
    expect(form.split('\n')).toEqual(expect.arrayContaining([`client_secret=${secret}`]))
    expect(form).toContain(`client_id=${HOSTILE}`)
  })

  it('curl with the Demo\'s secret holds it as one shell word and needs no variable set; the plain text never does', () => {
    const secret = `demo-'$(id)' "x" \\`
    const filled = curlText(connection, request, { secret })
    expect(filled).toContain("# The Demo's client secret, filled in: it changes every time Query Explorer starts")
    expect(filled).not.toContain(':?Set')
    const fakeCurl = `curl() { while [ $# -gt 0 ]; do case "$1" in --data-binary) cat; shift;; esac; shift; done; }\n`
    expect(JSON.parse(bashPrints(fakeCurl + tokenRequestOnly(filled)))).toMatchObject({ ClientSecret: secret })
    expect(curlText(connection, request)).not.toContain('filled in')
  })

  it('curl stops before the query, with a sentence on stderr and a non-zero status, when no token comes back', () => {
    // A stand-in curl: the token route answers an error, and the query, were it sent, would print QUERY SENT.
    const fakeCurl = `curl() { case "$*" in *Authorization*) echo 'QUERY SENT';; *) cat >/dev/null 2>&1 </dev/null; echo '{"error":"invalid_client"}';; esac; }\n`
    for (const text of [curlText(connection, request), curlText({ ...connection, tokenRequest: 'oauth' }, request)]) {
      const run = spawnSync('bash', ['-c', fakeCurl + text], { env: { PATH: process.env.PATH ?? '', [SECRET_VARIABLE]: 'wrong' }, encoding: 'utf8' })
      expect(run.status).not.toBe(0)
      expect(run.stdout).not.toContain('QUERY SENT')
      expect(run.stderr).toMatch(/(^|\n)No token came back from https:\/\/auth\.example\.org\/(api\/auth|oauth\/token): check the client ID and the secret in QUERY_EXPLORER_CLIENT_SECRET\./)
      expect(run.stderr).toContain('{"error":"invalid_client"}')
    }
  })

  it('TypeScript and Python carry the chain and options as string literals that keep hostile text inside', () => {
    const hostileRequest: QueryRequest = { ...request, steps: [{ endpoint: 'search', parameters: { query: HOSTILE } }] }
    const ts = typeScriptText(connection, hostileRequest)
    expect(ts).toContain(`import { Api, RequestType, type Query } from '@spinque/query-api'`)
    expect(ts).toContain(`const clientSecret = process.env.${SECRET_VARIABLE}`)
    expect(ts).toContain(`{ endpoint: "search", parameters: { "query": ${JSON.stringify(HOSTILE)} } }`)
    expect(ts).toContain('count: 20, offset: 40')
    expect(ts.split('\n').some((line) => line.startsWith('next line'))).toBe(false)
    const py = pythonText(connection, hostileRequest)
    // The Python client keeps `/` in values unencoded: the program sends the exact URL with requests instead.
    expect(py).toContain('import requests')
    expect(py).toContain(`os.environ.get("${SECRET_VARIABLE}")`)
    expect(py).toContain(`requests.get(${JSON.stringify(sent(connection.queryUrl, hostileRequest))}`)
    const plain = pythonText(connection, { ...request, steps: [{ endpoint: 'search', parameters: { query: 'it\'s "x"\nnext line' } }] })
    expect(plain).toContain('from spinque_query_api import Api, Query, RequestType')
    expect(plain).toContain(`Query(endpoint="search", parameters=[("query", "it's \\"x\\"\\nnext line")])`)
    expect(plain.split('\n').some((line) => line.startsWith('next line'))).toBe(false)
    expect(py.split('\n').some((line) => line.startsWith('next line'))).toBe(false)
  })
})
