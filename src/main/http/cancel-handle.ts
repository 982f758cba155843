/**
 * How one owner cancels requests it makes, one after another (the query
 * runner: a token renewal's replay is the second). A request in flight puts
 * its abort function in `abort`; `cancel` sets `cancelled` and calls it.
 * An AbortController and its listener cost more per request than
 * everything else the runner adds to undici (bench/query-client.ts).
 */
export interface CancelHandle {
  cancelled: boolean
  abort: (() => void) | null
}

export function cancelHandle(): CancelHandle {
  return { cancelled: false, abort: null }
}

export function cancel(handle: CancelHandle): void {
  handle.cancelled = true
  handle.abort?.()
}
