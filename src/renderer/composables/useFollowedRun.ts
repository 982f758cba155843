import { computed, shallowRef, watch, type Ref } from 'vue'
import { errorMessage } from '../api/explorer-client'
import { latestCall } from '../stores/latest-call'
import { pollUntilDone } from './poll-until-done'

/** What a run's status has in common, whatever it runs (an evaluation, an experiment). */
export interface RunStatusLike {
  runId: string
  state: 'running' | 'done' | 'cancelled' | 'failed'
  message: string | null
}

export interface KeptRecordsOptions<Summary, Kept> {
  /** The set whose records are listed; the list follows it. */
  chosen: () => string | null
  list: (set: string) => Promise<Summary[]>
  get: (id: string) => Promise<Kept>
  /** Where a failure is told. */
  error: Ref<string | null>
  /** The words before the reason when a record could not be read: "That evaluation could not be read". */
  unreadable: string
  /** After a record was shown. */
  onShown?: () => void
}

/**
 * The kept records of the chosen set, newest first, and the one shown: the
 * list is read again when the set changes (the latest call's answer wins),
 * and the newest is shown when the one shown is of another set.
 */
export function useKeptRecords<Summary extends { id: string }, Kept extends { set: string }>(options: KeptRecordsOptions<Summary, Kept>) {
  const { error } = options
  const shown = shallowRef<Kept | null>(null)
  const kept = shallowRef<Summary[]>([])
  const latest = latestCall()

  async function loadKept(): Promise<void> {
    const name = options.chosen()
    const isLatest = latest.start()
    try {
      const list = name ? await options.list(name) : []
      if (!isLatest()) return
      kept.value = list
      if (shown.value?.set !== name) shown.value = null
      if (!shown.value && list[0]) await show(list[0].id)
    } catch (e) {
      if (isLatest()) error.value = errorMessage(e)
    }
  }
  watch(options.chosen, () => void loadKept(), { immediate: true })

  async function show(id: string): Promise<void> {
    try {
      shown.value = await options.get(id)
      options.onShown?.()
    } catch (e) {
      error.value = `${options.unreadable}: ${errorMessage(e)}`
    }
  }

  return { shown, kept, loadKept, show }
}

export interface FollowedRunOptions<Status> {
  /** How often a running run is asked for its progress. */
  intervalMs: number
  status: (runId: string) => Promise<Status>
  cancel: (runId: string) => Promise<Status>
  /** Where a failure is told. */
  error: Ref<string | null>
  /** The ended states whose message is told as an error. */
  told: readonly RunStatusLike['state'][]
  /** The words before the reason when the progress could not be read: "The evaluation's progress could not be read". */
  unreadable: string
  /** After the following ended: with the final status, or null when a later run took its place. */
  ended: (final: Status | null) => Promise<void>
}

/**
 * A run main does in the background, followed from here: started with an id
 * of its own, its status asked for until it ends (a later start stops the
 * following of the one before), and cancelled.
 */
export function useFollowedRun<Status extends RunStatusLike>(options: FollowedRunOptions<Status>) {
  const { error } = options
  const run = shallowRef<Status | null>(null)
  const running = computed(() => run.value?.state === 'running')

  let following: AbortController | null = null
  async function follow(runId: string): Promise<void> {
    following?.abort()
    const controller = new AbortController()
    following = controller
    try {
      const final = await pollUntilDone(() => options.status(runId), (status) => status.state !== 'running', {
        intervalMs: options.intervalMs,
        signal: controller.signal,
        onAnswer: (status) => (run.value = status),
      })
      if (final && options.told.includes(final.state)) error.value = final.message
      await options.ended(final)
    } catch (e) {
      error.value = `${options.unreadable}: ${errorMessage(e)}`
    } finally {
      if (following === controller) following = null
    }
  }

  /** Starts a run under a new id and follows it; `failed` goes before the reason when it did not start. */
  async function begin(start: (runId: string) => Promise<Status>, failed: string): Promise<void> {
    const runId = crypto.randomUUID()
    try {
      run.value = await start(runId)
      void follow(runId)
    } catch (e) {
      error.value = `${failed}: ${errorMessage(e)}`
    }
  }

  async function cancel(): Promise<void> {
    const current = run.value
    if (!current || current.state !== 'running') return
    try {
      run.value = await options.cancel(current.runId)
    } catch (e) {
      error.value = errorMessage(e)
    }
  }

  return { run, running, begin, cancel }
}
