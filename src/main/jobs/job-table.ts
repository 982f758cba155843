import { ExplorerError } from '../../shared/ipc/errors'

/** A background job as the table sees it: running, or finished. */
export interface TableJob {
  readonly running: boolean
}

/** A job its controller stops, whose `finished` settles once it has stopped (test runs, evaluations, experiments). */
export interface StoppableJob extends TableJob {
  readonly controller: AbortController
  readonly finished: Promise<void>
}

/** Stops a job that is running and waits until it has: requests under way are cancelled, what it did is kept. */
export async function stopJob(job: StoppableJob): Promise<void> {
  if (!job.running) return
  job.controller.abort()
  await job.finished
}

/**
 * "Wake me later" for the table's clean-up, behind a seam so a test moves
 * time on by itself. The real one is setTimeout, unref'd: a finished job's
 * clean-up never keeps the process alive.
 */
export interface JobTimers {
  /** Calls `run` after `ms`; the reply cancels it. */
  after(ms: number, run: () => void): () => void
}

export const systemJobTimers: JobTimers = {
  after(ms, run) {
    const timer = setTimeout(run, ms)
    timer.unref()
    return () => clearTimeout(timer)
  },
}

export interface JobTableOptions {
  /** Jobs running at once; one more is refused with `full`. */
  maxRunning: number
  /** How long a finished job stays readable. */
  keptMs: number
  /** Finished jobs kept at most; the oldest go first. */
  maxFinishedKept: number
  /** The refusal when a job is asked for by an id the table does not hold (the id cut to 80 characters, `keptMs` in minutes). */
  notFound(shownId: string, keptMinutes: number): string
  /** The refusal when `maxRunning` jobs run already. */
  full(maxRunning: number): string
  /** The refusal when a job is started under the id of one still running (the id cut to 80 characters). */
  busy?(shownId: string): string
  timers?: JobTimers | undefined
}

/**
 * Background jobs by id (exports, test runs): at most so many running,
 * each readable while it runs and for a few minutes after it ends, then
 * forgotten; a bounded number of finished ones kept; all stopped on close.
 */
export class JobTable<J extends TableJob> {
  private readonly jobs = new Map<string, J>()
  private readonly cancels = new Set<() => void>()
  private readonly timers: JobTimers

  constructor(private readonly options: JobTableOptions) {
    this.timers = options.timers ?? systemJobTimers
  }

  /** Holds `job` under `id` (in place of a finished job of that id). */
  add(id: string, job: J): void {
    this.jobs.set(id, job)
  }

  /** The job, or undefined. */
  find(id: string): J | undefined {
    return this.jobs.get(id)
  }

  /** The job, or a not_found refusal saying a finished job is forgotten after a while. */
  get(id: string): J {
    const job = this.jobs.get(id)
    if (!job) throw new ExplorerError('not_found', this.options.notFound(id.slice(0, 80), this.options.keptMs / 60_000))
    return job
  }

  get running(): number {
    let count = 0
    for (const job of this.jobs.values()) if (job.running) count++
    return count
  }

  /**
   * Takes a job the window started under `id`: refused (validation) while a
   * job of that id still runs, with `busy`, or while `maxRunning` run already.
   */
  admit(id: string, job: J): void {
    if (this.jobs.get(id)?.running) throw new ExplorerError('validation', this.options.busy?.(id.slice(0, 80)) ?? `runId: a job with the id "${id.slice(0, 80)}" is running already.`)
    this.checkCapacity()
    this.add(id, job)
  }

  /** Refuses (validation) when `maxRunning` jobs run already. */
  checkCapacity(): void {
    if (this.running >= this.options.maxRunning) throw new ExplorerError('validation', this.options.full(this.options.maxRunning))
  }

  /**
   * Says `job` has ended: it is forgotten after `keptMs` (unless another job
   * took its id meanwhile), and the oldest finished jobs beyond
   * `maxFinishedKept` are forgotten now.
   */
  finished(id: string, job: J): void {
    const cancel = this.timers.after(this.options.keptMs, () => {
      this.cancels.delete(cancel)
      if (this.jobs.get(id) === job) this.jobs.delete(id)
    })
    this.cancels.add(cancel)
    this.prune()
  }

  /** Forgets the oldest finished jobs beyond `maxFinishedKept`. */
  prune(): void {
    const finished = [...this.jobs].filter(([, job]) => !job.running)
    for (const [id] of finished.slice(0, Math.max(0, finished.length - this.options.maxFinishedKept))) this.jobs.delete(id)
  }

  /** Cancels the clean-up timers, stops every job with `stop` (all at once), waits for them, and forgets them all. */
  async close(stop: (job: J) => Promise<unknown>): Promise<void> {
    for (const cancel of this.cancels) cancel()
    this.cancels.clear()
    await Promise.all([...this.jobs.values()].map(stop))
    this.jobs.clear()
  }
}
