import type { ExperimentRunStatus } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { ExperimentRecord } from '../../shared/experiments/experiment-record'
import { JobTable, stopJob } from '../jobs/job-table'
import type { Logger } from '../logging/logger'
import type { ExperimentProgress } from './run-experiment'

/** One experiment at a time: it evaluates several sides a few queries at a time already. */
export const MAX_RUNNING_EXPERIMENTS = 1
const FINISHED_KEPT_MS = 10 * 60_000

class ExperimentJob {
  state: ExperimentRunStatus['state'] = 'running'
  progress: ExperimentProgress = { phase: 'starting', done: 0, total: 0 }
  readonly started = performance.now()
  ended: number | null = null
  experimentId: string | null = null
  message: string | null = null
  readonly controller = new AbortController()
  finished: Promise<void> = Promise.resolve()

  constructor(
    readonly runId: string,
    readonly set: string,
  ) {}

  get running(): boolean {
    return this.state === 'running'
  }

  status(): ExperimentRunStatus {
    const { runId, state, set, experimentId, message } = this
    const { phase, done, total } = this.progress
    return { runId, state, set, phase, done, total, durationMs: (this.ended ?? performance.now()) - this.started, experimentId, message }
  }
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
export class ExperimentRuns {
  private readonly jobs = new JobTable<ExperimentJob>({
    maxRunning: MAX_RUNNING_EXPERIMENTS,
    keptMs: FINISHED_KEPT_MS,
    maxFinishedKept: 10,
    notFound: (id, minutes) => `There is no experiment run with the id "${id}" (a finished run is forgotten after ${minutes} minutes; kept experiments are in experiments:list).`,
    full: () => 'An experiment is running already: wait for it to finish, or cancel it.',
    busy: (id) => `runId: an experiment with the id "${id}" is running already.`,
  })

  constructor(private readonly log: Logger) {}

  start({ runId, set, work }: ExperimentStart): ExperimentRunStatus {
    const job = new ExperimentJob(runId, set)
    this.jobs.admit(runId, job)
    job.finished = work(job.controller.signal, (progress) => (job.progress = progress)).then(
      (record) => {
        job.experimentId = record.id
        this.end(job, record.state)
      },
      (error: unknown) => {
        if (job.controller.signal.aborted) {
          job.message = 'Cancelled: the evaluations that finished are kept (the Evaluation view lists them); no comparison was made.'
          this.end(job, 'cancelled')
          return
        }
        this.log.error(`experiment ${runId}: failed`, error)
        job.message = this.log.scrub(error instanceof ExplorerError ? error.message : `The experiment failed inside the app: ${(error as Error).message ?? String(error)}`)
        this.end(job, 'failed')
      },
    )
    return job.status()
  }

  status(runId: string): ExperimentRunStatus {
    return this.jobs.get(runId).status()
  }

  async cancel(runId: string): Promise<ExperimentRunStatus> {
    const job = this.jobs.get(runId)
    await stopJob(job)
    return job.status()
  }

  async close(): Promise<void> {
    await this.jobs.close(stopJob)
  }

  private end(job: ExperimentJob, state: ExperimentRunStatus['state']): void {
    job.state = state
    job.ended = performance.now()
    this.log.info(`experiment ${job.runId}: ${state}`)
    this.jobs.finished(job.runId, job)
  }
}
