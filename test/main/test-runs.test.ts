import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/main/logging/logger'
import type { CaseTargets } from '../../src/main/test-cases/case-targets'
import { MAX_RUNNING_TEST_RUNS, scrubbedReport, TestRuns } from '../../src/main/test-cases/test-runs'
import type { ResolvedCase } from '../../src/shared/test-cases/case-request'
import type { CaseReport } from '../../src/shared/test-cases/report'
import type { Expectations } from '../../src/shared/test-cases/test-case'
import { refusal } from '../fixtures/failure-of'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search, untilEnded } from './support'

/** Test runs of this launch: started in the background, polled, cancelled, their reports scrubbed of secrets. */

describe('TestRuns', () => {
  const tempDir = useTempDirs('qe-test-runs')
  let api: RankingServer
  const runs: TestRuns[] = []
  beforeAll(async () => {
    api = await startRankingServer({ paris: ['p1', 'p2'], broken: { status: 500, message: 'key sk-abc refused' } })
  })
  afterEach(async () => {
    for (const each of runs.splice(0)) await each.close()
  })
  afterAll(() => api?.close())

  function open() {
    const log = createLogger(tempDir())
    const testRuns = new TestRuns(api.runner, log)
    runs.push(testRuns)
    return { testRuns, log }
  }
  const testCase = (name: string, text: string, expect: Expectations = {}): ResolvedCase => ({ name, expect, connection: 'local', request: search(text), error: null })
  const targets: CaseTargets = { targetOf: () => api.target, overrides: {}, text: 'Ranking server' }

  it('starts a run at once, with every case pending, and ends with each case\'s report', async () => {
    const { testRuns } = open()
    const started = testRuns.start({ runId: 'r1', cases: [testCase('found', 'paris', { contains: [{ id: 'p2', within: 2 }] }), testCase('missing', 'paris', { contains: [{ id: 'zz', within: 2 }] })], targets })
    expect(started).toMatchObject({ runId: 'r1', state: 'running', target: 'Ranking server', total: 2, done: 0, cases: [null, null] })
    const ended = await untilEnded(async () => testRuns.status('r1'))
    expect([ended.state, ended.done]).toEqual(['done', 2])
    expect(ended.cases.map((report) => report?.outcome)).toEqual(['passed', 'failed'])
  })

  it("scrubs the server's words in each report with the log's secrets", async () => {
    const { testRuns, log } = open()
    log.redact('sk-abc')
    testRuns.start({ runId: 'r2', cases: [testCase('broken', 'broken')], targets })
    const ended = await untilEnded(async () => testRuns.status('r2'))
    expect(JSON.stringify(ended.cases)).not.toContain('sk-abc')
    expect(JSON.stringify(ended.cases)).toContain('[redacted]')
  })

  it('a cancelled run ends cancelled, its cases not passed', async () => {
    const { testRuns } = open()
    testRuns.start({ runId: 'r3', cases: [testCase('a', 'paris'), testCase('b', 'paris'), testCase('c', 'paris')], targets, concurrency: 1 })
    await testRuns.cancel('r3')
    const ended = await untilEnded(async () => testRuns.status('r3'))
    expect(ended.state).toBe('cancelled')
    expect(ended.cases.every((report) => report?.outcome === 'error')).toBe(true)
  })

  it('takes no more than three runs at once, and knows no run it did not start', () => {
    const { testRuns } = open()
    for (let n = 0; n < MAX_RUNNING_TEST_RUNS; n++) testRuns.start({ runId: `busy${n}`, cases: [testCase('a', 'paris')], targets })
    expect(refusal(() => testRuns.start({ runId: 'one-too-many', cases: [testCase('a', 'paris')], targets })).code).toBe('validation')
    expect(refusal(() => testRuns.status('never-started')).code).toBe('not_found')
  })
})

describe('scrubbedReport', () => {
  it("passes the report's error and every check's actual value through the scrubber, and nothing else", () => {
    const scrub = (text: string) => text.replaceAll('secret', '[redacted]')
    const report: CaseReport = { name: 'secret case', outcome: 'failed', durationMs: 1, error: 'a secret error', checks: [{ what: 'secret status', passed: false, expected: 'secret 200', actual: 'secret 500' }] }
    expect(scrubbedReport(report, scrub)).toEqual({ ...report, error: 'a [redacted] error', checks: [{ ...report.checks[0], actual: '[redacted] 500' }] })
  })
})
