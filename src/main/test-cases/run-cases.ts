import type { QueryRunner, QueryTarget } from '../query/query-runner'
import { ExplorerError } from '../../shared/ipc/errors'
import { caseRequest, failedOutcome, outcomeOf, type ResolvedCase, type TargetOverrides } from '../../shared/test-cases/case-request'
import { evaluate } from '../../shared/test-cases/evaluate'
import type { CaseReport } from '../../shared/test-cases/report'

/**
 * Runs test cases through the app's own query runner (same tokens, origin
 * rules, deadlines and cancellation as every query), a few at a time. The
 * app's Tests region and `query-explorer test` both come through here.
 */

export interface RunCasesOptions {
  runner: QueryRunner
  /** Where each case runs: by the case's file connection (null when it has none). */
  targetOf: (testCase: ResolvedCase) => QueryTarget | string
  overrides?: TargetOverrides
  cases: ResolvedCase[]
  /** How many cases run at once; the service's quota and the machine decide (default 4). */
  concurrency?: number
  signal?: AbortSignal
  /** Called as each case ends, in the order they end. */
  onCase?: (report: CaseReport, index: number) => void
  /** Makes the runner's request ids unique to this run. */
  runId: string
}

export const DEFAULT_CONCURRENCY = 4
export const MAX_CONCURRENCY = 16

export async function runCases(options: RunCasesOptions): Promise<CaseReport[]> {
  const { cases, runner } = options
  const reports: CaseReport[] = new Array(cases.length)
  const concurrency = Math.max(1, Math.min(MAX_CONCURRENCY, options.concurrency ?? DEFAULT_CONCURRENCY))
  let next = 0

  const runOne = async (index: number): Promise<CaseReport> => {
    const testCase = cases[index]!
    if (testCase.error !== null || testCase.request === null) {
      return { name: testCase.name, outcome: 'error', durationMs: 0, checks: [], error: testCase.error ?? 'The case has no query.' }
    }
    const target = options.targetOf(testCase)
    if (typeof target === 'string') return { name: testCase.name, outcome: 'error', durationMs: 0, checks: [], error: target }
    let request
    try {
      request = caseRequest(testCase.request, testCase.expect, options.overrides)
    } catch (error) {
      return { name: testCase.name, outcome: 'error', durationMs: 0, checks: [], error: (error as Error).message }
    }
    const started = performance.now()
    let outcome
    try {
      const reply = await runner.run(`${options.runId}:${index}`, target, request, { fresh: true, signal: options.signal })
      outcome = outcomeOf(reply, reply.timings.totalMs)
    } catch (error) {
      const durationMs = performance.now() - started
      if (error instanceof ExplorerError) {
        if (error.code === 'cancelled' || error.code === 'validation') {
          return { name: testCase.name, outcome: 'error', durationMs, checks: [], error: error.message }
        }
        outcome = failedOutcome(error.extra.status ?? null, error.message, durationMs)
      } else {
        outcome = failedOutcome(null, (error as Error).message, durationMs)
      }
    }
    const checks = evaluate(testCase.expect, outcome)
    return {
      name: testCase.name,
      outcome: checks.every((check) => check.passed) ? 'passed' : 'failed',
      durationMs: outcome.durationMs,
      checks,
      keys: outcome.keys,
    }
  }

  const worker = async () => {
    while (next < cases.length) {
      if (options.signal?.aborted) return
      const index = next++
      const report = await runOne(index)
      reports[index] = report
      options.onCase?.(report, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, worker))
  // Cases never started because the run was cancelled say so.
  for (let index = 0; index < cases.length; index++) {
    reports[index] ??= { name: cases[index]!.name, outcome: 'error', durationMs: 0, checks: [], error: 'Not run: the run was cancelled.' }
  }
  return reports
}
