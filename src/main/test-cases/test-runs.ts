import type { TestRunStatus } from '../../shared/ipc/contract'
import type { ResolvedCase } from '../../shared/test-cases/case-request'
import type { CaseReport } from '../../shared/test-cases/report'
import type { Logger } from '../logging/logger'
import type { QueryRunner } from '../http/query-runner'
import { BackgroundJobs, type BackgroundJob } from '../jobs/background-jobs'
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

/** A run's reports, in the order of its cases: null while a case has not ended. */
type Reports = (CaseReport | null)[]

/**
 * The test runs of this launch, by the id the window chose: started at once
 * and run in the background a few cases at a time, polled for progress
 * (`tests:status`), cancellable, and forgotten a few minutes after they end.
 */
export class TestRuns {
  private readonly runs: BackgroundJobs<Reports, TestRunStatus>
  /** Each run's target in words, by id: its status says it. */
  private readonly targets = new WeakMap<BackgroundJob<Reports>, string>()

  constructor(
    private readonly runner: QueryRunner,
    private readonly log: Logger,
  ) {
    this.runs = new BackgroundJobs<Reports, TestRunStatus>(
      {
        noun: 'test run',
        maxRunning: MAX_RUNNING_TEST_RUNS,
        keptMs: FINISHED_RUN_KEPT_MS,
        maxFinishedKept: MAX_FINISHED_KEPT,
        status: (job) => ({
          ...job.statusFields(),
          target: this.targets.get(job) ?? '',
          total: job.progress.length,
          done: job.progress.filter((report) => report !== null).length,
          cases: [...job.progress],
        }),
        summary: (job) => `${job.progress.filter((report) => report?.outcome === 'passed').length} of ${job.progress.length} passed on ${this.targets.get(job) ?? ''}`,
      },
      log,
    )
  }

  start({ runId, cases, targets, concurrency }: TestRunStart): TestRunStatus {
    const scrub = (report: CaseReport) => scrubbedReport(report, this.log.scrub)
    return this.runs.start(runId, new Array<CaseReport | null>(cases.length).fill(null), async (job) => {
      this.targets.set(job, targets.text)
      const reports = job.progress
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

  status(runId: string): TestRunStatus {
    return this.runs.status(runId)
  }

  /** Stops the run: requests under way are cancelled, cases not started say so. Replies once it has stopped. */
  cancel(runId: string): Promise<TestRunStatus> {
    return this.runs.cancel(runId)
  }

  close(): Promise<void> {
    return this.runs.close()
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
