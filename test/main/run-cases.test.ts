import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOT_RUN, runCase, runCases } from '../../src/main/test-cases/run-cases'
import type { ResolvedCase } from '../../src/shared/test-cases/case-request'
import type { Expectations } from '../../src/shared/test-cases/test-case'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { search } from './support'

/** Test cases run through the app's query runner against a Query API on 127.0.0.1 answering rankings the test wrote, and judged. */

describe('runCases', () => {
  let api: RankingServer
  beforeAll(async () => {
    api = await startRankingServer({ paris: ['p1', 'p2', 'p3'], broken: { status: 500, message: 'Index offline' } })
  })
  afterAll(() => api?.close())

  const testCase = (name: string, text: string, expect: Expectations): ResolvedCase => ({ name, expect, connection: 'demo', request: search(text), error: null })
  const options = (cases: ResolvedCase[], extra: Partial<Parameters<typeof runCases>[0]> = {}): Parameters<typeof runCases>[0] => ({
    runner: api.runner,
    targetOf: () => api.target,
    cases,
    runId: 'cases',
    ...extra,
  })

  it('judges each case by its expectations, in the cases\' order, telling each as it ends', async () => {
    const ended: number[] = []
    const reports = await runCases(
      options(
        [
          testCase('found', 'paris', { contains: [{ id: 'p2', within: 3 }], totalAtLeast: 3 }),
          testCase('ranked too low', 'paris', { rankAtMost: [{ id: 'p3', rank: 1 }] }),
          testCase('an expected error', 'broken', { status: 500, messageStartsWith: 'Index offline' }),
          testCase('an unexpected error', 'broken', {}),
        ],
        { onCase: (_, index) => ended.push(index) },
      ),
    )
    expect(reports.map((report) => [report.name, report.outcome])).toEqual([
      ['found', 'passed'],
      ['ranked too low', 'failed'],
      ['an expected error', 'passed'],
      ['an unexpected error', 'failed'],
    ])
    expect(reports[0]!.keys).toEqual(['p1', 'p2', 'p3'])
    // p3 (labelled P3) comes third, and the case wants it first: that check, and only it, fails.
    expect(reports[1]!.checks.filter((check) => !check.passed)).toMatchObject([{ item: 'P3 (p3)', expected: 'at rank 1 or better' }])
    expect(ended.sort()).toEqual([0, 1, 2, 3])
  })

  it('a case that cannot run is an error saying why: no query, no target', async () => {
    const [broken, nowhere] = await runCases(
      options(
        [
          { name: 'no query', expect: {}, connection: 'demo', request: null, error: 'The saved query "Gone" is not in the workspace.' },
          testCase('no target', 'paris', {}),
        ],
        { targetOf: (resolved) => (resolved.name === 'no target' ? 'The workspace\'s connection "Demo" is not connected.' : api.target) },
      ),
    )
    expect(broken).toEqual({ name: 'no query', outcome: 'error', durationMs: 0, checks: [], error: 'The saved query "Gone" is not in the workspace.' })
    expect(nowhere).toMatchObject({ outcome: 'error', error: 'The workspace\'s connection "Demo" is not connected.' })
  })

  it('a cancelled run says which cases it did not run, and asks nothing', async () => {
    const before = api.asked().length
    const cancelled = new AbortController()
    cancelled.abort()
    const reports = await runCases(options([testCase('a', 'paris', {}), testCase('b', 'paris', {})], { signal: cancelled.signal }))
    expect(reports.map((report) => [report.outcome, report.error])).toEqual([
      ['error', NOT_RUN],
      ['error', NOT_RUN],
    ])
    expect(api.asked().length).toBe(before)
  })

  it('runCase judges by what `judge` makes of the outcome, and gives the outcome back', async () => {
    // The case asks as deep as its own expectations need (three); the judge then holds it to a snapshot of what came.
    const run = await runCase(testCase('snapshot', 'paris', { contains: [{ id: 'p1', within: 3 }] }), () => api.target, {
      runner: api.runner,
      requestId: 'one',
      judge: (outcome) => ({ snapshot: { ids: outcome.keys, minRbo: 1 } }),
    })
    expect(run.report.outcome).toBe('passed')
    expect(run.outcome?.keys).toEqual(['p1', 'p2', 'p3'])
    expect(run.outcome?.labels).toEqual(['P1', 'P2', 'P3'])
  })
})
