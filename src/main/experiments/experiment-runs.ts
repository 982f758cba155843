import type { ExperimentRunStatus } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { ExperimentRecord } from '../../shared/experiments/experiment-record'
import { JobsOfKind } from '../jobs/background-jobs'
import type { Logger } from '../logging/logger'
import type { ExperimentProgress } from './run-experiment'

/** One experiment at a time: it evaluates several sides a few queries at a time already. */
export const MAX_RUNNING_EXPERIMENTS = 1
const FINISHED_KEPT_MS = 10 * 60_000

/** What an experiment tracks while it runs. */
interface ExperimentProgressState {
  set: string
  progress: ExperimentProgress
  /** The kept experiment, once done (`experiments:get`). */
  experimentId: string | null
}

export interface ExperimentStart {
  runId: string
  set: string
  /** Runs the experiment and keeps it: reports progress, stops on the signal. */
  work: (signal: AbortSignal, onProgress: (progress: ExperimentProgress) => void) => Promise<ExperimentRecord>
}

/**
 * The experiments of this launch, by the id the window chose: started at
 * once, run in the background (the sides' evaluations, then the statistics
 * in a worker thread), polled for progress (`experiments:status`) and cancellable.
 */
export class ExperimentRuns extends JobsOfKind<ExperimentProgressState, ExperimentRunStatus> {
  constructor(private readonly log: Logger) {
    super(
      {
        noun: 'experiment',
        maxRunning: MAX_RUNNING_EXPERIMENTS,
        keptMs: FINISHED_KEPT_MS,
        maxFinishedKept: 10,
        keptElsewhere: 'kept experiments are in experiments:list',
        status: (job) => {
          const { set, experimentId, progress } = job.progress
          return { ...job.statusFields(), set, experimentId, phase: progress.phase, done: progress.done, total: progress.total }
        },
      },
      log,
    )
  }

  start({ runId, set, work }: ExperimentStart): ExperimentRunStatus {
    return this.jobs.start(runId, { set, progress: { phase: 'starting', done: 0, total: 0 }, experimentId: null }, async (job) => {
      try {
        const record = await work(job.signal, (progress) => (job.progress.progress = progress))
        job.progress.experimentId = record.id
        return record.state
      } catch (error) {
        if (job.signal.aborted) {
          job.message = 'Cancelled: the evaluations that finished are kept (the Evaluation view lists them); no comparison was made.'
          return 'cancelled'
        }
        // A refusal of ours says itself; anything else is a fault, said as one.
        if (!(error instanceof ExplorerError)) throw error
        this.log.error(`experiment ${runId}: failed`, error)
        job.message = this.log.scrub(error.message)
        return 'failed'
      }
    })
  }
}
