import { request as undiciRequest, Agent } from 'undici'
import { startService } from '../src/service'
import { TokenManager, type TokenAccount } from '../src/main/auth/token-manager'
import { memorySecretStore } from '../src/main/credentials/secret-store'
import { HttpClient } from '../src/main/http/http-client'
import { QueryRunner } from '../src/main/http/query-runner'
import type { QueryRequest } from '../src/shared/query/model'
import { buildUrl } from '../src/shared/query/url'
import { atMost, runWhenMain, type BenchResult } from './result'
import { percentile } from './stats'

/**
 * The app's query client (QueryRunner: validation, URL building, token, undici
 * Pool, timings, size cap, JSON parse and shape check) against a bare
 * `undici.request` + JSON.parse and Node's global `fetch` + json(), for the
 * same page of the same embedded service, in the same process, one request
 * at a time, interleaved so that drift hits all three alike. The short-lived
 * reply cache is off (`fresh`), so every request goes out. Two page sizes:
 * 10 items (~4 KB, where the client's fixed cost per request shows most) and
 * 100 items (~40 KB, where reading the body does).
 */

const WARMUP = 100
const ROUNDS = 900
const PAGE_SIZES = [10, 100] as const

const requestFor = (count: number): QueryRequest => ({
  workspace: 'world',
  api: 'places',
  steps: [{ endpoint: 'search', parameters: { query: 'san' } }],
  responseType: 'results',
  options: { count },
})

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits

type Client = 'ours' | 'bare' | 'fetched'

export async function benchQueryClient(): Promise<BenchResult[]> {
  const service = await startService({ port: 0, log: () => undefined })
  const http = new HttpClient()
  const tokens = new TokenManager(http)
  const runner = new QueryRunner(http, tokens, { ttlMs: 0 })
  const secrets = memorySecretStore('bench')
  const account: TokenAccount = {
    key: 'bench',
    authUrl: service.authUrl,
    queryOrigin: new URL(service.queryUrl).origin,
    workspace: service.workspace,
    clientId: service.account.clientId,
    secret: async () => service.account.clientSecret,
    cache: secrets,
  }
  const target = { key: 'bench', queryUrl: service.queryUrl, account }
  const token = await tokens.token(account)
  const headers = { authorization: `Bearer ${token}`, accept: '*/*' }
  const agent = new Agent({ keepAliveTimeout: 30_000 })

  const results: BenchResult[] = []
  try {
    for (const count of PAGE_SIZES) {
      const request = requestFor(count)
      const url = buildUrl(service.queryUrl, request)
      const clients: Record<Client, () => Promise<void>> = {
        async ours() {
          const reply = await runner.run('bench', target, request, { fresh: true })
          if ((reply.body as { items: unknown[] }).items.length !== count) throw new Error(`ours: expected ${count} items`)
        },
        async bare() {
          const response = await undiciRequest(url, { headers, dispatcher: agent })
          const body = (await response.body.json()) as { items: unknown[] }
          if (response.statusCode !== 200 || body.items.length !== count) throw new Error(`undici: expected ${count} items`)
        },
        async fetched() {
          const response = await fetch(url, { headers })
          const body = (await response.json()) as { items: unknown[] }
          if (response.status !== 200 || body.items.length !== count) throw new Error(`fetch: expected ${count} items`)
        },
      }
      const times: Record<Client, number[]> = { ours: [], bare: [], fetched: [] }
      const names = Object.keys(clients) as Client[]
      for (let i = 0; i < WARMUP + ROUNDS; i++) {
        // The order rotates each round, so that no client always follows another's garbage.
        for (let k = 0; k < names.length; k++) {
          const name = names[(i + k) % names.length]!
          const started = performance.now()
          await clients[name]()
          if (i >= WARMUP) times[name].push(performance.now() - started)
        }
      }
      results.push(...report(count, times))
    }
  } finally {
    await http.close()
    await agent.close()
    await service.close()
  }
  return results
}

function report(count: number, times: Record<Client, number[]>): BenchResult[] {
  const stats = Object.fromEntries(
    Object.entries(times).map(([name, list]) => [name, { p50: percentile(list, 0.5), p99: percentile(list, 0.99) }]),
  ) as Record<Client, { p50: number; p99: number }>
  const page = `count=${count}`
  const note = `${ROUNDS} sequential requests each after ${WARMUP} warm-up, interleaved in rotating order; ${count}-item page of a "san" search; the service's own time is in all three`
  return [
    { name: `query client p50 (${page})`, value: round(stats.ours.p50), unit: 'ms', note: 'QueryRunner + HttpClient: validate, build URL, cached token, undici Pool, timings, cap, JSON parse + shape and depth check' },
    { name: `query client p99 (${page})`, value: round(stats.ours.p99), unit: 'ms' },
    { name: `bare undici.request p50 (${page})`, value: round(stats.bare.p50), unit: 'ms', note: 'same URL and token, body.json()' },
    { name: `bare undici.request p99 (${page})`, value: round(stats.bare.p99), unit: 'ms' },
    { name: `global fetch p50 (${page})`, value: round(stats.fetched.p50), unit: 'ms', note: 'same URL and token, response.json()' },
    { name: `global fetch p99 (${page})`, value: round(stats.fetched.p99), unit: 'ms' },
    { name: `query client / undici p50 (${page})`, value: round(stats.ours.p50 / stats.bare.p50), unit: 'ratio', note, aim: atMost(round(stats.ours.p50 / stats.bare.p50), 1.1, '×') },
    { name: `query client / undici p99 (${page})`, value: round(stats.ours.p99 / stats.bare.p99), unit: 'ratio' },
    { name: `query client / fetch p50 (${page})`, value: round(stats.ours.p50 / stats.fetched.p50), unit: 'ratio' },
    { name: `query client / fetch p99 (${page})`, value: round(stats.ours.p99 / stats.fetched.p99), unit: 'ratio' },
  ]
}

runWhenMain(__filename, benchQueryClient)
