import type { JobStatus } from '../../shared/ipc/job-channels'
import { MAX_FAILURES_SHOWN, type JudgeFailure, type JudgeRunStatus } from '../../shared/ipc/judge-contract'
import { JobsOfKind, type EndState } from '../jobs/background-jobs'
import type { Logger } from '../logging/logger'
import { failureCount, type JudgingProgress } from './judge-set'

/** Judging runs at once: each keeps a few calls going to a provider with its own rate limits, and writes into the one document. */
export const MAX_RUNNING_JUDGINGS = 1
const FINISHED_KEPT_MS = 30 * 60_000

/**
 * What a judging run tracks while it runs: its status's fields, and its
 * failures (the first MAX_FAILURES_KEPT kept, for Retry failed; the rest
 * counted; the status shows the first MAX_FAILURES_SHOWN and the count).
 */
export interface JudgeProgress extends JudgingProgress {
  set: string
  judge: string
}

export interface JudgeStart {
  runId: string
  set: string
  judge: string
  /** Runs the judging: writes the progress as it goes, stops on the signal, says how it ended. */
  work: (progress: JudgeProgress, signal: AbortSignal) => Promise<{ state: EndState; message: string | null }>
}

/**
 * The judgings of this launch, by the id the window chose: started at once,
 * run in the background (each grade taken into the document as it comes, so
 * a cancel, a budget or a crash keeps what was graded), polled for progress
 * (`judges:status`), and readable after they end so Retry failed can name
 * the failures of one.
 */
export class JudgeRuns extends JobsOfKind<JudgeProgress, JudgeRunStatus> {
  constructor(log: Logger) {
    super(
      {
        noun: 'judging run',
        maxRunning: MAX_RUNNING_JUDGINGS,
        keptMs: FINISHED_KEPT_MS,
        maxFinishedKept: 20,
        status: (job) => statusOf(job.statusFields(), job.progress),
        summary: ({ progress }) =>
          `${progress.judge} on ${progress.set}: ${progress.graded} graded (${progress.cached} cached), ${failureCount(progress)} failed, ${progress.calls} calls${progress.stoppedByBudget ? ', stopped at the budget' : ''}`,
      },
      log,
    )
  }

  start({ runId, set, judge, work }: JudgeStart): JudgeRunStatus {
    const progress: JudgeProgress = {
      set,
      judge,
      phase: 'fetching results',
      done: 0,
      total: 0,
      estimate: null,
      graded: 0,
      cached: 0,
      failures: [],
      calls: 0,
      tokens: { input: 0, output: 0 },
      stoppedByBudget: false,
      left: 0,
    }
    return this.jobs.start(runId, progress, async (job) => {
      const ended = await work(job.progress, job.signal)
      job.message = ended.message
      return ended.state
    })
  }

  /**
   * The failures of an earlier run of this launch (Retry failed), with the
   * set and judge it ran: those kept, and how many more were only counted
   * (`notKept`: Retry failed says they are not retried).
   */
  failuresOf(runId: string): { set: string; judge: string; failures: readonly JudgeFailure[]; notKept: number } {
    const status = this.jobs.progressOf(runId)
    return { set: status.set, judge: status.judge, failures: status.failures, notKept: status.failuresNotKept ?? 0 }
  }
}

function statusOf(fields: JobStatus, progress: JudgeProgress): JudgeRunStatus {
  const { failures, failuresNotKept: _counted, ...rest } = progress
  return { ...fields, ...rest, failedCount: failureCount(progress), failures: failures.slice(0, MAX_FAILURES_SHOWN) }
}
