import { ExplorerError } from '../../shared/ipc/errors'

/**
 * Whole-request deadlines of the requests in flight, on one timer: the one
 * set for the earliest deadline. A timer per request would make and unmake
 * Node's timer list for that duration on every request, which is most of what
 * a deadline costs.
 */
export class Deadlines {
  private readonly entries = new Set<{ at: number; expire: () => void }>()
  private timer: NodeJS.Timeout | null = null
  private timerAt = Infinity

  add(at: number, expire: () => void): { at: number; expire: () => void } {
    const entry = { at, expire }
    this.entries.add(entry)
    if (at < this.timerAt) this.schedule(at)
    return entry
  }

  delete(entry: { at: number; expire: () => void }): void {
    this.entries.delete(entry)
  }

  clear(): void {
    this.entries.clear()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.timerAt = Infinity
  }

  private schedule(at: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timerAt = at
    // Unref'd: a request in flight keeps the process alive through its socket, not through its deadline.
    this.timer = setTimeout(() => this.sweep(), Math.max(0, at - performance.now()))
    this.timer.unref()
  }

  private sweep(): void {
    this.timer = null
    this.timerAt = Infinity
    const now = performance.now()
    let next = Infinity
    for (const entry of this.entries) {
      if (entry.at <= now) {
        this.entries.delete(entry)
        entry.expire()
      } else if (entry.at < next) next = entry.at
    }
    if (next < Infinity) this.schedule(next)
  }
}

/** The sentence for a request that ran past its whole-request deadline. */
export function pastDeadline(url: URL, ms: number): ExplorerError {
  return new ExplorerError(
    'timeout',
    `${url.host} did not complete the answer within ${ms / 1000} s (the request's deadline; it can be changed in the connection's advanced settings).`,
  )
}
