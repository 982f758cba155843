/**
 * Time behind a seam. Everything that asks "what time is it" or "wake me
 * later" for a rule a user relies on (token lifetimes, quota windows, a
 * Retry-After wait) takes a Clock, so a test can move time on by itself
 * instead of racing a real one on a machine whose cores are busy.
 *
 * Durations a user is shown (a query took 42 ms) stay on performance.now():
 * they are measurements, not rules.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number
  /** Resolves after `ms`; rejects with the signal's reason when it is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/** The real clock. setTimeout is the host's (Node and browsers alike); nothing else here touches the platform. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, Math.max(0, ms))
      const onAbort = () => {
        clearTimeout(timer)
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}
