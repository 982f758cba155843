import type { QueryRunner, QueryTarget } from '../http/query-runner'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import { caseRequest, failedOutcome, outcomeOf, type ResolvedCase, type TargetOverrides } from '../../shared/test-cases/case-request'
import { evaluate, type RunOutcome } from '../../shared/test-cases/evaluate'
import type { CaseReport } from '../../shared/test-cases/report'
import type { Expectations } from '../../shared/test-cases/test-case'

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

/**
 * One request of a case or a comparison, as what the expectations judge: an
 * answer, an error status or no answer at all become a RunOutcome; a
 * cancellation or a request that cannot be sent is thrown.
 */
async function runOutcome(
  runner: QueryRunner,
  requestId: string,
  target: QueryTarget,
  request: QueryRequest,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const started = performance.now()
  try {
    const reply = await runner.run(requestId, target, request, { fresh: true, signal })
    return outcomeOf(reply, reply.timings.totalMs)
  } catch (error) {
    const durationMs = performance.now() - started
    if (error instanceof ExplorerError) {
      if (error.code === 'cancelled' || error.code === 'validation') throw error
      return failedOutcome(error.extra.status ?? null, error.message, durationMs)
    }
    return failedOutcome(null, (error as Error).message, durationMs)
  }
}

const errorReport = (name: string, error: string, durationMs = 0): CaseReport => ({ name, outcome: 'error', durationMs, checks: [], error })

/** Runs one case on a target and judges it; the outcome too, when the request was answered or failed (for "Update snapshot"). */
export async function runCase(
  testCase: ResolvedCase,
  targetOf: () => QueryTarget | string,
  options: { runner: QueryRunner; requestId: string; overrides?: TargetOverrides | undefined; signal?: AbortSignal | undefined; judge?: (outcome: RunOutcome) => Expectations },
): Promise<{ report: CaseReport; outcome: RunOutcome | null }> {
  if (testCase.error !== null || testCase.request === null) return { report: errorReport(testCase.name, testCase.error ?? 'The case has no query.'), outcome: null }
  const target = targetOf()
  if (typeof target === 'string') return { report: errorReport(testCase.name, target), outcome: null }
  let request
  try {
    request = caseRequest(testCase.request, testCase.expect, options.overrides)
  } catch (error) {
    return { report: errorReport(testCase.name, (error as Error).message), outcome: null }
  }
  const started = performance.now()
  let outcome: RunOutcome
  try {
    outcome = await runOutcome(options.runner, options.requestId, target, request, options.signal)
  } catch (error) {
    return { report: errorReport(testCase.name, (error as Error).message, performance.now() - started), outcome: null }
  }
  const checks = evaluate(options.judge?.(outcome) ?? testCase.expect, outcome)
  return {
    report: {
      name: testCase.name,
      outcome: checks.every((check) => check.passed) ? 'passed' : 'failed',
      durationMs: outcome.durationMs,
      checks,
      keys: outcome.keys,
      labels: outcome.labels,
    },
    outcome,
  }
}

export async function runCases(options: RunCasesOptions): Promise<CaseReport[]> {
  const { cases, runner } = options
  const reports: CaseReport[] = new Array(cases.length)
  const concurrency = Math.max(1, Math.min(MAX_CONCURRENCY, options.concurrency ?? DEFAULT_CONCURRENCY))
  let next = 0

  const runOne = async (index: number): Promise<CaseReport> => {
    const testCase = cases[index]!
    const run = await runCase(testCase, () => options.targetOf(testCase), { runner, requestId: `${options.runId}:${index}`, overrides: options.overrides, signal: options.signal })
    return run.report
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
    reports[index] ??= errorReport(cases[index]!.name, NOT_RUN)
  }
  return reports
}

export const NOT_RUN = 'Not run: the run was cancelled.'
