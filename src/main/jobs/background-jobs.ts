import { JobTable, stopJob, type JobTimers } from './job-table'
import type { JobStatus } from '../../shared/ipc/job-channels'
import type { Logger } from '../logging/logger'

/** Where a job is: every kind has these four. */
export type JobState = JobStatus['state']

/** How a job ended, as its work says it. */
export type EndState = Exclude<JobState, 'running'>

/**
 * One background job of any kind: its state, its clock, the signal that
 * stops it, and what its kind tracks while it runs (`progress`: a test run's
 * reports, an evaluation's counts, an export's rows). The work writes
 * `progress` and `message`; BackgroundJobs writes the rest.
 */
export class BackgroundJob<Progress> {
  state: JobState = 'running'
  /** Why it ended as it did, in words, when there is something to say. */
  message: string | null = null
  readonly controller = new AbortController()
  /** Settles once the work has stopped and the job has ended. */
  finished: Promise<void> = Promise.resolve()
  readonly started = performance.now()
  ended: number | null = null

  constructor(
    readonly runId: string,
    public progress: Progress,
  ) {}

  get running(): boolean {
    return this.state === 'running'
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  get durationMs(): number {
    return (this.ended ?? performance.now()) - this.started
  }

  /** What every kind's status holds (JobStatusSchema); a kind adds its progress. */
  statusFields(): JobStatus {
    return { runId: this.runId, state: this.state, durationMs: this.durationMs, message: this.message }
  }
}

/** A kind of background work: its name in sentences, its bounds, and its status shape. */
export interface JobKind<Progress, Status> {
  /** What one is called in a sentence: "test run", "evaluation", "export". */
  noun: string
  /** Its plural, where it is not the noun and an s. */
  plural?: string
  /** Running at once; one more is refused, saying so. */
  maxRunning: number
  /** How long a finished one stays readable (the window polls it, and may come back to it). */
  keptMs: number
  /** Finished ones kept at most; the oldest go first. */
  maxFinishedKept: number
  /** Where its result lives once the job is forgotten: "kept evaluations are in eval:list". */
  keptElsewhere?: string
  /** The status the window reads, from the job. */
  status: (job: BackgroundJob<Progress>) => Status
  /** The end of its log line: "3 of 12 passed on Demo". */
  summary?: (job: BackgroundJob<Progress>) => string
  timers?: JobTimers | undefined
}

/**
 * The work of one job: runs until done or until `job.signal` stops it,
 * writing `job.progress` as it goes, and says how it ended. A throw is a
 * fault of ours: the job fails with its message, passed through the log's
 * scrubber like every text that leaves main.
 */
export type JobWork<Progress> = (job: BackgroundJob<Progress>) => Promise<EndState>

/**
 * Every kind of background work (test runs, evaluations, experiments,
 * exports) the one way: started under an id (the window's, or one main
 * picks), at most so many at once, polled for its status, cancelled (the
 * reply comes once it has stopped), readable for a while after it ends, and
 * all stopped on close. A kind brings only its work and its status shape.
 */
export class BackgroundJobs<Progress, Status> {
  private readonly table: JobTable<BackgroundJob<Progress>>

  constructor(
    private readonly kind: JobKind<Progress, Status>,
    private readonly log: Pick<Logger, 'info' | 'error' | 'scrub'>,
  ) {
    const plural = kind.plural ?? `${kind.noun}s`
    const article = /^[aeiou]/.test(kind.noun) ? 'an' : 'a'
    this.table = new JobTable({
      maxRunning: kind.maxRunning,
      keptMs: kind.keptMs,
      maxFinishedKept: kind.maxFinishedKept,
      notFound: (id, minutes) =>
        `There is no ${kind.noun} with the id "${id}" (a finished ${kind.noun} is forgotten after ${minutes} minutes${kind.keptElsewhere ? `; ${kind.keptElsewhere}` : ''}).`,
      full: (max) =>
        max === 1 ? `${capitalized(`${article} ${kind.noun}`)} is running already: wait for it to finish, or cancel it.` : `${max} ${plural} are running already: wait for one to finish, or cancel one.`,
      busy: (id) => `runId: ${article} ${kind.noun} with the id "${id}" is running already.`,
      timers: kind.timers,
    })
  }

  /** Refuses, saying why, when as many run as may: for a kind that asks the user something (a save dialog) before it starts. */
  checkCapacity(): void {
    this.table.checkCapacity()
  }

  /** Starts `work` under `runId` and answers its first status at once; refused while that id runs or the kind is full. */
  start(runId: string, progress: Progress, work: JobWork<Progress>): Status {
    const job = new BackgroundJob(runId, progress)
    this.table.admit(runId, job)
    let ended: Promise<EndState>
    try {
      // Started now, not a tick later: a cancel or close that comes at once finds the work listening to its signal.
      ended = work(job)
    } catch (error) {
      ended = Promise.reject(error)
    }
    job.finished = ended.then(
        (state) => this.end(job, state),
        (error: unknown) => {
          this.log.error(`${this.kind.noun} ${runId}: failed`, error)
          job.message = this.log.scrub(`The ${this.kind.noun} failed inside the app: ${error instanceof Error ? error.message : String(error)}`)
          this.end(job, 'failed')
        },
      )
    return this.kind.status(job)
  }

  status(runId: string): Status {
    return this.kind.status(this.table.get(runId))
  }

  /** What a job (running or kept after it ended) tracks: for a kind whose next run starts from an earlier one's (Retry failed). */
  progressOf(runId: string): Progress {
    return this.table.get(runId).progress
  }

  /** Stops the job: what it was waiting for is cancelled, what it did is kept. Replies once it has stopped. */
  async cancel(runId: string): Promise<Status> {
    const job = this.table.get(runId)
    await stopJob(job)
    return this.kind.status(job)
  }

  /** Stops every job that runs, waits for them, and forgets them all. */
  close(): Promise<void> {
    return this.table.close(stopJob)
  }

  private end(job: BackgroundJob<Progress>, state: EndState): void {
    job.state = state
    job.ended = performance.now()
    const summary = this.kind.summary?.(job)
    this.log.info(`${this.kind.noun} ${job.runId}: ${state}${summary ? `, ${summary}` : ''}${job.message && state !== 'done' ? `: ${job.message}` : ''}`)
    this.table.finished(job.runId, job)
  }
}

/**
 * The jobs of one kind as its channels see them (`<kind>:start`, `:status`,
 * `:cancel`) and as the app closes them: a kind extends it with its own
 * start, which says what the kind needs and hands BackgroundJobs its
 * progress and work; status, cancel and close are every kind's, answered here.
 */
export abstract class JobsOfKind<Progress, Status> {
  protected readonly jobs: BackgroundJobs<Progress, Status>

  constructor(kind: JobKind<Progress, Status>, log: Pick<Logger, 'info' | 'error' | 'scrub'>) {
    this.jobs = new BackgroundJobs(kind, log)
  }

  status(runId: string): Status {
    return this.jobs.status(runId)
  }

  /** Stops the job: what it was waiting for is cancelled, what it did is kept. Replies once it has stopped. */
  cancel(runId: string): Promise<Status> {
    return this.jobs.cancel(runId)
  }

  /** Stops every job of the kind that runs, waits for them, and forgets them all. */
  close(): Promise<void> {
    return this.jobs.close()
  }
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
