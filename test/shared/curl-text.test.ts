import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { SECRET_VARIABLE } from '../../src/shared/copy-as/copy-plan'
import { curlText } from '../../src/shared/copy-as/curl-text'
import { HOSTILE, bashPrints, connection, request, sent, tokenRequestOnly } from '../fixtures/copy-as'

/**
 * "Copy as curl", run by bash with a stand-in curl (a shell function) that
 * prints what it was given, so no server is needed: the token request the
 * connection makes, the query with that token, and nothing sent when no
 * token comes back.
 */

/** Runs the text with a stand-in curl; the query, were it sent, prints QUERY SENT. */
const runWith = (fakeCurl: string, text: string) =>
  spawnSync('bash', ['-c', fakeCurl + text], { env: { PATH: process.env.PATH ?? '', [SECRET_VARIABLE]: 'wrong' }, encoding: 'utf8' })

describe('curl text', () => {
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
    expect(curlText({ ...connection, clientId: '' }, request)).toBe(`curl -s '${sent(connection.queryUrl, request)}'\n`)
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
      const run = runWith(fakeCurl, text)
      expect(run.status).not.toBe(0)
      expect(run.stdout).not.toContain('QUERY SENT')
      expect(run.stderr).toMatch(/(^|\n)No token came back from https:\/\/auth\.example\.org\/(api\/auth|oauth\/token): check the client ID and the secret in QUERY_EXPLORER_CLIENT_SECRET\./)
      expect(run.stderr).toContain('{"error":"invalid_client"}')
    }
  })

  it('an auth host that does not answer is named as a connection failure, not a wrong secret, and the query is not sent', () => {
    // curl's status 7: could not connect.
    const fakeCurl = `curl() { case "$*" in *Authorization*) echo 'QUERY SENT';; *) cat >/dev/null 2>&1 </dev/null; return 7;; esac; }\n`
    for (const text of [curlText(connection, request), curlText({ ...connection, tokenRequest: 'oauth' }, request)]) {
      const run = runWith(fakeCurl, text)
      expect(run.status).not.toBe(0)
      expect(run.stdout).not.toContain('QUERY SENT')
      expect(run.stderr.split('\n')).toContain(
        "Could not connect to https://auth.example.org for a token (curl's own error is above): a connection failure, not a matter of the client ID or secret. Is the auth server running, and is the auth URL right?",
      )
      expect(run.stderr).not.toContain('No token came back')
    }
  })

  it('with a token, the query goes out with it to the exact URL', () => {
    const fakeCurl = `curl() { case "$*" in *Authorization*) printf '%s\\n' "$@";; *) cat >/dev/null 2>&1 </dev/null; echo '{"access_token" : "tok-1","expires_in":300}';; esac; }\n`
    const run = runWith(fakeCurl, curlText(connection, request))
    expect(run.status).toBe(0)
    expect(run.stdout).toBe(`-s\n-H\nAuthorization: Bearer tok-1\n${sent(connection.queryUrl, request)}\n`)
  })
})
