import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageRunner } from '../../src/main/evaluation/run-set'
import { runExperiment, sideLetter, type ExperimentProgress, type ExperimentTarget } from '../../src/main/experiments/run-experiment'
import { TokenManager } from '../../src/main/auth/token-manager'
import { HttpClient } from '../../src/main/http/http-client'
import { QueryRunner, type QueryTarget } from '../../src/main/http/query-runner'
import { DEFAULT_METRICS } from '../../src/shared/relevance/metrics'
import { DEFAULT_SETTINGS, type QuerySet } from '../../src/shared/relevance/query-set'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { search, startServer, type TestServer } from './support'

/**
 * An experiment against a hostile server on 127.0.0.1 whose every page holds
 * 20,000 items, whatever count it was asked: each evaluation keeps the depth
 * asked of every query, the second side and the attribution take the first
 * side's rankings without asking again, and what is shared is the rankings,
 * not the pages: by the time the second side starts, every page the first
 * one read can be collected (a full GC, forced, clears the WeakRef to each).
 */

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const ITEMS = 20_000
const DEPTH = 150

function page(offset: number): string {
  const items: string[] = []
  for (let i = offset; i < offset + ITEMS; i++) items.push(`{"rank":${i + 1},"probability":${1 - i / 100_000},"tuple":[{"id":"${i}","class":["C"]}]}`)
  return `{"offset":${offset},"count":${ITEMS},"type":["OBJ"],"items":[${items.join(',')}]}`
}

describe('an experiment on pages holding more than was asked', () => {
  let server: TestServer
  let http: HttpClient
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const body = page(Number(new URL(req.url ?? '/', server.origin).searchParams.get('offset') ?? 0))
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    })
    http = new HttpClient()
  })
  afterAll(async () => {
    await http?.close()
    await server?.close()
  })

  it('keeps rankings of the depth asked, shares them between sides, and lets every page go', async () => {
    // As the command line runs it: no reply cache, so only the experiment could keep a page.
    const runner = new QueryRunner(http, new TokenManager(http), { ttlMs: 0 })
    const pages: WeakRef<object>[] = []
    const tracked: PageRunner = {
      run: async (...args) => {
        const reply = await runner.run(...args)
        pages.push(new WeakRef(reply))
        // A WeakRef holds its target to the end of the turn it was made in: the reply is handed on in a later one.
        await new Promise((resolve) => setImmediate(resolve))
        return reply
      },
    }
    const target: QueryTarget = { key: 'hostile', queryUrl: `${server.origin}/query`, account: null }
    const side = (label: string): ExperimentTarget => ({ spec: null, label, target, overrides: {} })
    const set: QuerySet = {
      name: 'Surplus',
      query: 'Template',
      queries: [1, 2, 3].map((n) => ({ id: `q${n}`, text: `text ${n}` })),
      judgments: [{ query: 'q1', item: '2', rater: 'r1', grade: 3 }],
    }
    let pagesAliveAtB: number | null = null
    const run = await runExperiment({
      runner: tracked,
      set,
      template: search('{{query}}'),
      workspaceName: 'test',
      sides: [side('A'), side('B')],
      metrics: DEFAULT_METRICS,
      settings: DEFAULT_SETTINGS,
      depth: DEPTH,
      attribution: true,
      runId: 'surplus',
      onProgress: (progress) => {
        if (pagesAliveAtB !== null || !progress.phase.startsWith('B:')) return
        gc()
        pagesAliveAtB = pages.filter((ref) => ref.deref() !== undefined).length
      },
    })

    // Two pages a query (100 and 50 items asked), read once, by A.
    expect(pages.length).toBe(6)
    expect(server.seen.length).toBe(6)
    expect(pagesAliveAtB).toBe(0)
    // B and the attribution's one prefix (the whole template on A's target) took A's rankings.
    expect(run.reused).toBe(12)
    for (const evaluation of [...run.evaluations, ...run.attribution.map((step) => step.evaluation)]) {
      expect(evaluation.rankings.map((ranking) => ranking.items.length)).toEqual([DEPTH, DEPTH, DEPTH])
      expect(evaluation.rankings[0]!.items).toEqual(Array.from({ length: DEPTH }, (_, i) => String(i)))
    }
  }, 60_000)
})

describe('runExperiment', () => {
  let api: RankingServer
  beforeAll(async () => {
    api = await startRankingServer({ one: ['a', 'b'], two: ['b', 'a'] })
  })
  afterAll(() => api?.close())

  const set: QuerySet = {
    name: 'Pair',
    query: 'Template',
    queries: [
      { id: 'q1', text: 'one' },
      { id: 'q2', text: 'two' },
    ],
    judgments: [{ query: 'q1', item: 'a', rater: 'r1', grade: 1 }],
  }
  const side = (label: string): ExperimentTarget => ({ spec: null, label, target: api.target, overrides: {} })
  const input = (extra: Partial<Parameters<typeof runExperiment>[0]> = {}): Parameters<typeof runExperiment>[0] => ({
    runner: api.runner,
    set,
    template: search('{{query}}'),
    workspaceName: 'test',
    sides: [side('Here'), side('There')],
    metrics: [{ name: 'rr', k: null }],
    settings: DEFAULT_SETTINGS,
    depth: 2,
    attribution: false,
    concurrency: 1,
    runId: 'pair',
    ...extra,
  })

  it('names sides by letter, evaluates each in order, and counts progress across the sides', async () => {
    expect([sideLetter(0), sideLetter(1), sideLetter(25)]).toEqual(['A', 'B', 'Z'])
    const progress: ExperimentProgress[] = []
    const before = api.asked().length
    const run = await runExperiment(input({ onProgress: (step) => progress.push(step) }))
    expect(progress).toEqual([
      { phase: 'A: Here', done: 0, total: 4 },
      { phase: 'A: Here', done: 1, total: 4 },
      { phase: 'A: Here', done: 2, total: 4 },
      { phase: 'B: There', done: 2, total: 4 },
      { phase: 'B: There', done: 3, total: 4 },
      { phase: 'B: There', done: 4, total: 4 },
    ])
    expect(run.evaluations.map((evaluation) => [evaluation.targetText, evaluation.scored.means])).toEqual([
      ['Here', { rr: 1 }],
      ['There', { rr: 1 }],
    ])
    // Both sides ask the same pages: B takes A's two rankings, one page each.
    expect([api.asked().length - before, run.reused, run.attribution]).toEqual([2, 2, []])
  })

  it('a cancelled experiment evaluates no side', async () => {
    const cancelled = new AbortController()
    cancelled.abort()
    expect(await runExperiment(input({ signal: cancelled.signal, attribution: true }))).toEqual({ evaluations: [], attribution: [], reused: 0 })
  })
})
