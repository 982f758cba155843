import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccountDirectory, createAccount } from '../../src/service/auth/accounts'
import { TokenQuota } from '../../src/service/auth/quota'
import { TokenStore } from '../../src/service/auth/tokens'
import { loadDataset } from '../../src/service/dataset/load'
import { createServiceServer, type TokenRoute } from '../../src/service/http/server'
import { createChainCache } from '../../src/service/query/chain-cache'
import { runQuery, type QueryEngine } from '../../src/service/query/query-work'
import { hostedWorkspaces } from '../../src/service/workspace/workspaces'

/**
 * One loopback server for both hosts: the routes by path and method, the
 * token requests counted by route, and a fault of ours answered 500 without
 * its details while the operator's log gets them. Built here from its parts,
 * the query work answered on this thread as the query thread answers it
 * (query-work.ts). (hostile.test.ts sends it what no client should.)
 */

const accounts = new AccountDirectory([createAccount({ clientId: 'demo', clientSecret: 'demo-secret' })])
const tokenRoutes: TokenRoute[] = []
const logged: string[] = []
let fail = false
const engine: QueryEngine = {
  workspaces: hostedWorkspaces(),
  dataset: loadDataset(),
  // A text index that breaks when told stands in for any fault inside a strategy.
  text: {
    search: () => {
      if (fail) {
        fail = false
        throw new Error('secret internals')
      }
      return []
    },
  },
  chainCache: createChainCache(),
  budgetMs: 5000,
}

let server: Server
let origin: string
beforeAll(async () => {
  const tokens = new TokenStore(60)
  server = createServiceServer(
    {
      auth: { accounts, tokens, quota: new TokenQuota(50), workspaces: new Set(['world']) },
      query: { prefix: ['query'], workspaces: engine.workspaces, tokens, accounts, queries: { answer: (query) => runQuery(engine, query) } },
      onTokenRequest: (route) => void tokenRoutes.push(route),
      log: (message) => void logged.push(message),
    },
    { requestMs: 5000 },
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const PUBLIC_SEARCH = '/query/world/api/public/e/search/p/query/x/results'

describe('createServiceServer', () => {
  it('routes /auth/api/auth and /auth/oauth/token (a trailing slash too), counting each token request by its route', async () => {
    tokenRoutes.length = 0
    const json = JSON.stringify({ WorkspaceName: 'world', ClientId: 'demo', ClientSecret: 'demo-secret', ForceReauth: false })
    for (const path of ['/auth/api/auth', '/auth/api/auth/']) {
      expect((await fetch(origin + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json })).status, path).toBe(200)
    }
    const form = 'grant_type=client_credentials&client_id=demo&client_secret=demo-secret'
    for (const path of ['/auth/oauth/token', '/auth/oauth/token/']) {
      expect((await fetch(origin + path, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form })).status, path).toBe(200)
    }
    expect(tokenRoutes).toEqual(['json', 'json', 'oauth', 'oauth'])
  })

  it('takes the audience of an OAuth request as the query URL on the Host the client used', async () => {
    const form = `grant_type=client_credentials&client_id=demo&client_secret=demo-secret&audience=${encodeURIComponent(`${origin}/query`)}`
    expect((await fetch(`${origin}/auth/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form })).status).toBe(200)
  })

  it('405 with Allow for another method: POST on the token routes, GET (or HEAD) on the Query API', async () => {
    for (const [method, path, allowed] of [
      ['GET', '/auth/api/auth', 'POST'],
      ['GET', '/auth/oauth/token', 'POST'],
      ['POST', PUBLIC_SEARCH, 'GET'],
      ['DELETE', '/query/world/api/public', 'GET'],
    ] as const) {
      const reply = await fetch(origin + path, { method })
      expect([reply.status, reply.headers.get('allow')], `${method} ${path}`).toEqual([405, allowed])
      expect(await reply.json()).toEqual({ message: `Method not allowed: use ${allowed}` })
    }
    expect((await fetch(origin + PUBLIC_SEARCH, { method: 'HEAD' })).status).toBe(200)
  })

  it('404 in JSON for any other path, saying where things are served', async () => {
    const reply = await fetch(`${origin}/admin?x=1`)
    expect(reply.status).toBe(404)
    expect(await reply.json()).toEqual({ message: 'No such api: nothing is served at /admin (try /query/…, POST /auth/api/auth or POST /auth/oauth/token)' })
    expect((await fetch(`${origin}/queryish/world/api/public`)).status).toBe(404)
  })

  it('answers every reply with its Content-Length', async () => {
    const reply = await new Promise<{ length: string | undefined; body: string }>((resolve, reject) => {
      httpRequest(`${origin}/query/world/api/public`, (response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => (body += chunk.toString()))
        response.on('end', () => resolve({ length: response.headers['content-length'], body }))
      })
        .on('error', reject)
        .end()
    })
    expect(Number(reply.length)).toBe(Buffer.byteLength(reply.body))
  })

  it('answers a fault of the service 500 Internal error, hiding the details, logs them, and goes on', async () => {
    logged.length = 0
    fail = true
    // A search no earlier test ran: a chain run before is answered from the chain cache, never reaching the index.
    const faulty = '/query/world/api/public/e/search/p/query/faulty/results'
    const broken = await fetch(`${origin}${faulty}?count=1`)
    expect(broken.status).toBe(500)
    const text = await broken.text()
    expect(JSON.parse(text).message.startsWith('Internal error')).toBe(true)
    expect(text).not.toContain('secret internals')
    expect(logged).toHaveLength(1)
    // The path, not the query string (it may hold values a person typed), and the stack for the operator.
    expect(logged[0]).toMatch(/^internal error on GET \/query\/world\/api\/public\/e\/search\/p\/query\/faulty\/results: Error: secret internals\n\s+at /)
    expect((await fetch(origin + faulty)).status).toBe(200)
  })
})
