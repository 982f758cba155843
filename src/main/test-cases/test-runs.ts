import type { TestRunStatus } from '../../shared/ipc/contract'
import type { ResolvedCase } from '../../shared/test-cases/case-request'
import type { CaseReport } from '../../shared/test-cases/report'
import type { Logger } from '../logging/logger'
import type { QueryRunner } from '../http/query-runner'
import { JobsOfKind } from '../jobs/background-jobs'
import type { CaseTargets } from './case-targets'
import { runCases } from './run-cases'

/** Runs at once: each keeps a few requests going, so more would only queue at the service (and its quota). */
export const MAX_RUNNING_TEST_RUNS = 3
/** How long a finished run's results stay readable (the window polls them, and may come back to them). */
export const FINISHED_RUN_KEPT_MS = 10 * 60_000
const MAX_FINISHED_KEPT = 20

export interface TestRunStart {
  runId: string
  cases: ResolvedCase[]
  targets: CaseTargets
  concurrency?: number | undefined
}

/** What a run tracks: its target in words (its status says it), and its reports in the order of its cases, null while a case has not ended. */
interface TestRunProgress {
  target: string
  reports: (CaseReport | null)[]
}

/**
 * The test runs of this launch, by the id the window chose: started at once
 * and run in the background a few cases at a time, polled for progress
 * (`tests:status`), cancellable (cases not started say so), and forgotten a
 * few minutes after they end.
 */
export class TestRuns extends JobsOfKind<TestRunProgress, TestRunStatus> {
  constructor(
    private readonly runner: QueryRunner,
    private readonly log: Logger,
  ) {
    super(
      {
        noun: 'test run',
        maxRunning: MAX_RUNNING_TEST_RUNS,
        keptMs: FINISHED_RUN_KEPT_MS,
        maxFinishedKept: MAX_FINISHED_KEPT,
        status: (job) => ({
          ...job.statusFields(),
          target: job.progress.target,
          total: job.progress.reports.length,
          done: job.progress.reports.filter((report) => report !== null).length,
          cases: [...job.progress.reports],
        }),
        summary: ({ progress }) => `${progress.reports.filter((report) => report?.outcome === 'passed').length} of ${progress.reports.length} passed on ${progress.target}`,
      },
      log,
    )
  }

  start({ runId, cases, targets, concurrency }: TestRunStart): TestRunStatus {
    const scrub = (report: CaseReport) => scrubbedReport(report, this.log.scrub)
    const progress: TestRunProgress = { target: targets.text, reports: new Array<CaseReport | null>(cases.length).fill(null) }
    return this.jobs.start(runId, progress, async (job) => {
      const reports = job.progress.reports
      try {
        const ended = await runCases({
          runner: this.runner,
          targetOf: targets.targetOf,
          overrides: targets.overrides,
          cases,
          concurrency,
          signal: job.signal,
          runId: `tests:${runId}`,
          onCase: (report, index) => (reports[index] = scrub(report)),
        })
        ended.forEach((report, index) => (reports[index] = scrub(report)))
        return job.signal.aborted ? 'cancelled' : 'done'
      } catch (error) {
        // runCases reports every failure per case; anything else is a fault of ours, said on the cases left.
        this.log.error(`test run ${runId}: failed`, error)
        reports.forEach((report, index) => {
          reports[index] = report ?? { name: cases[index]!.name, outcome: 'error', durationMs: 0, checks: [], error: 'Not run: the test run failed inside the app.' }
        })
        return 'done'
      }
    })
  }
}

/**
 * A report with the server's words in it passed through the log's scrubber,
 * as every error text that leaves main is: the runner already strips the
 * token from answers, and this is the second line of defence.
 */
export function scrubbedReport(report: CaseReport, scrub: (text: string) => string): CaseReport {
  return {
    ...report,
    ...(report.error !== undefined ? { error: scrub(report.error) } : {}),
    checks: report.checks.map((check) => ({ ...check, actual: scrub(check.actual) })),
  }
}
