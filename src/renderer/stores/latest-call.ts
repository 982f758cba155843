/**
 * "Latest call wins": answers can come back out of order (a search typed on,
 * a run started again), and only the newest call's answer may land.
 */
export interface LatestCall {
  /** Starts a call; the check it returns stays true until a later call starts or `supersede` is called. */
  start(): () => boolean
  /** Makes every call started so far out of date (Cancel, a reset). */
  supersede(): void
}

export function latestCall(): LatestCall {
  let latest = 0
  return {
    start() {
      const mine = ++latest
      return () => mine === latest
    },
    supersede() {
      latest++
    },
  }
}
