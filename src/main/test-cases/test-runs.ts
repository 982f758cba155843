import type { TestRunStatus } from '../../shared/ipc/contract'
import type { ResolvedCase } from '../../shared/test-cases/case-request'
import type { CaseReport } from '../../shared/test-cases/report'
import type { Logger } from '../logging/logger'
import type { QueryRunner } from '../http/query-runner'
import { JobTable, stopJob } from '../jobs/job-table'
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

class TestRun {
  readonly reports: (CaseReport | null)[]
  state: TestRunStatus['state'] = 'running'
  readonly started = performance.now()
  ended: number | null = null
  readonly controller = new AbortController()
  finished: Promise<void> = Promise.resolve()

  constructor(
    readonly runId: string,
    readonly target: string,
    total: number,
  ) {
    this.reports = new Array<CaseReport | null>(total).fill(null)
  }

  get running(): boolean {
    return this.state === 'running'
  }

  status(): TestRunStatus {
    return {
      runId: this.runId,
      state: this.state,
      target: this.target,
      total: this.reports.length,
      done: this.reports.filter((report) => report !== null).length,
      cases: [...this.reports],
      durationMs: (this.ended ?? performance.now()) - this.started,
    }
  }
}

/**
 * The test runs of this launch, by the id the window chose: started at once
 * and run in the background a few cases at a time, polled for progress
 * (`tests:status`), cancellable, and forgotten a few minutes after they end.
 */
export class TestRuns {
  private readonly runs = new JobTable<TestRun>({
    maxRunning: MAX_RUNNING_TEST_RUNS,
    keptMs: FINISHED_RUN_KEPT_MS,
    maxFinishedKept: MAX_FINISHED_KEPT,
    notFound: (id, minutes) => `There is no test run with the id "${id}" (a finished run is forgotten after ${minutes} minutes).`,
    full: (max) => `${max} test runs are going already: wait for one to finish, or cancel one.`,
    busy: (id) => `runId: a test run with the id "${id}" is running already.`,
  })

  constructor(
    private readonly runner: QueryRunner,
    private readonly log: Logger,
  ) {}

  start({ runId, cases, targets, concurrency }: TestRunStart): TestRunStatus {
    const run = new TestRun(runId, targets.text, cases.length)
    this.runs.admit(runId, run)
    run.finished = runCases({
      runner: this.runner,
      targetOf: targets.targetOf,
      overrides: targets.overrides,
      cases,
      concurrency,
      signal: run.controller.signal,
      runId: `tests:${runId}`,
      onCase: (report, index) => {
        run.reports[index] = scrubbedReport(report, this.log.scrub)
      },
    }).then(
      (reports) => {
        reports.forEach((report, index) => (run.reports[index] = scrubbedReport(report, this.log.scrub)))
        this.finish(run, run.controller.signal.aborted ? 'cancelled' : 'done')
      },
      (error: unknown) => {
        // runCases reports every failure per case; anything else is a fault of ours, said on the cases left.
        this.log.error(`test run ${runId}: failed`, error)
        run.reports.forEach((report, index) => {
          run.reports[index] = report ?? { name: cases[index]!.name, outcome: 'error', durationMs: 0, checks: [], error: 'Not run: the test run failed inside the app.' }
        })
        this.finish(run, 'done')
      },
    )
    return run.status()
  }

  status(runId: string): TestRunStatus {
    return this.runs.get(runId).status()
  }

  /** Stops the run: requests under way are cancelled, cases not started say so. Replies once it has stopped. */
  async cancel(runId: string): Promise<TestRunStatus> {
    const run = this.runs.get(runId)
    await stopJob(run)
    return run.status()
  }

  async close(): Promise<void> {
    await this.runs.close(stopJob)
  }

  private finish(run: TestRun, state: 'done' | 'cancelled'): void {
    run.state = state
    run.ended = performance.now()
    const passed = run.reports.filter((report) => report?.outcome === 'passed').length
    this.log.info(`test run ${run.runId}: ${state}, ${passed} of ${run.reports.length} passed on ${run.target}`)
    this.runs.finished(run.runId, run)
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
