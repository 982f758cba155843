import { systemClock, type Clock } from '../../shared/time/clock'

export interface PollOptions<T> {
  /** The wait before each question. */
  intervalMs: number
  /** Stops the polling: no question is asked after it, and an answer that comes after it is dropped. */
  signal?: AbortSignal | undefined
  /** Each answer as it comes, the last (final) one included. */
  onAnswer?: ((answer: T) => void) | undefined
  clock?: Pick<Clock, 'sleep'> | undefined
}

/**
 * Follows something main runs in the background (an export, a test run):
 * waits, asks, and again, until an answer says it has ended. The caller
 * already holds a first answer, so the first question comes after a wait.
 *
 * Replies the final answer, or null when `signal` stopped it first (the
 * dialog closed, the run was cancelled or replaced). A question that fails
 * rejects, unless `signal` stopped the polling meanwhile.
 */
export async function pollUntilDone<T>(ask: () => Promise<T>, isDone: (answer: T) => boolean, options: PollOptions<T>): Promise<T | null> {
  const { intervalMs, signal, onAnswer, clock = systemClock } = options
  for (;;) {
    if (signal?.aborted) return null
    try {
      await clock.sleep(intervalMs, signal)
    } catch (error) {
      if (signal?.aborted) return null
      throw error
    }
    if (signal?.aborted) return null
    let answer: T
    try {
      answer = await ask()
    } catch (error) {
      if (signal?.aborted) return null
      throw error
    }
    if (signal?.aborted) return null
    onAnswer?.(answer)
    if (isDone(answer)) return answer
  }
}
