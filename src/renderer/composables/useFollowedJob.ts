import { computed, shallowRef, type Ref } from 'vue'
import type { Channel } from '../../shared/ipc/channels'
import type { ReplyOf } from '../../shared/ipc/contract'
import type { JobStatus } from '../../shared/ipc/job-channels'
import type { Clock } from '../../shared/time/clock'
import { call, errorMessage } from '../api/explorer-client'
import { pollUntilDone } from './poll-until-done'

/** The kinds of background job main runs: each has `<kind>:start`, `<kind>:status` and `<kind>:cancel` (shared/ipc/job-channels.ts). */
export type JobKindName = 'tests' | 'export' | 'eval' | 'experiments' | 'judges'

/** The status a kind's channels answer. */
export type JobStatusOf<K extends JobKindName> = ReplyOf<`${K}:status` & Channel>

export interface FollowedJobOptions<Status> {
  /** How often a running job is asked for its status. */
  intervalMs: number
  /** Where a failure is told. */
  error: Ref<string | null>
  /** The words before the reason when the status could not be read: "The evaluation's progress could not be read". */
  unreadable: string
  /** The ended states whose message is told as an error. */
  told?: readonly JobStatus['state'][]
  /** Each status as it comes, the first (from the start) and the last included. */
  onStatus?: (status: Status) => void
  /** After the following ended: with the final status, or null when a later job (or stop) took its place. */
  ended?: (final: Status | null) => unknown
  clock?: Pick<Clock, 'sleep'>
}

/**
 * A background job main runs, followed from here the one way for every kind
 * (test runs, exports, evaluations, experiments): started under an id of its
 * own (or one main picks), its status asked for until it ends (a later start
 * stops the following of the one before), and cancelled. A status that can
 * no longer be read ends the following: the job is shown as no longer running,
 * and the error says why.
 */
export function useFollowedJob<K extends JobKindName>(kind: K, options: FollowedJobOptions<JobStatusOf<K>>) {
  type Status = JobStatusOf<K>
  // Every kind's status extends JobStatusSchema; TypeScript cannot see that through a kind not yet chosen.
  const job = (status: Status) => status as unknown as JobStatus
  const { error } = options
  const run = shallowRef<Status | null>(null)
  const running = computed(() => run.value !== null && job(run.value).state === 'running')
  const statusChannel = `${kind}:status` as `${K}:status` & Channel
  const cancelChannel = `${kind}:cancel` as `${K}:cancel` & Channel

  function show(status: Status): void {
    run.value = status
    options.onStatus?.(status)
  }

  let following: AbortController | null = null
  /** Stops following the job shown (it goes on in main): another workspace, a closed view. */
  function stop(): void {
    following?.abort()
    following = null
  }

  /** Shows `status` and, while it runs, asks for the next until it ends. */
  async function follow(status: Status): Promise<void> {
    stop()
    show(status)
    const controller = new AbortController()
    following = controller
    try {
      const final =
        job(status).state === 'running'
          ? await pollUntilDone(() => call(statusChannel, { runId: job(status).runId } as never) as Promise<Status>, (next) => job(next).state !== 'running', {
              intervalMs: options.intervalMs,
              signal: controller.signal,
              onAnswer: show,
              clock: options.clock,
            })
          : status
      if (final && options.told?.includes(job(final).state)) error.value = job(final).message
      await options.ended?.(final)
    } catch (e) {
      error.value = `${options.unreadable}: ${errorMessage(e)}`
      if (following === controller && run.value) run.value = { ...run.value, state: 'cancelled' } as Status
    } finally {
      if (following === controller) following = null
    }
  }

  /**
   * Starts a job and follows it: `start` is given a new id (kinds whose id
   * the window picks use it) and answers the first status, or null when
   * nothing started (the user closed a save dialog). `failed`, when given,
   * goes before the reason when it did not start. Answers the first status.
   */
  async function begin(start: (runId: string) => Promise<Status | null>, failed?: string): Promise<Status | null> {
    try {
      const first = await start(crypto.randomUUID())
      if (first) void follow(first)
      return first
    } catch (e) {
      error.value = failed ? `${failed}: ${errorMessage(e)}` : errorMessage(e)
      return null
    }
  }

  /** Cancels the job shown; the reply comes once it has stopped. A refusal goes to `failed` (default: the error). */
  async function cancel(failed: (message: string) => void = (message) => (error.value = message)): Promise<void> {
    const current = run.value
    if (!current || job(current).state !== 'running') return
    try {
      const stopped = (await call(cancelChannel, { runId: job(current).runId } as never)) as Status
      // The poll would find the same: say it now, and stop asking.
      stop()
      await follow(stopped)
    } catch (e) {
      failed(errorMessage(e))
    }
  }

  /** Forgets the job shown (it is not cancelled). */
  function clear(): void {
    stop()
    run.value = null
  }

  return { run, running, begin, follow, cancel, stop, clear }
}
