import { ServiceError } from '../refusal'

/**
 * The time one Query API request may spend working. The service's queries
 * run one at a time on its query thread (query-thread.ts), so a request that
 * works for seconds delays every query behind it; past its budget a request
 * stops at the next check and is refused.
 *
 * Work is the process's CPU time, not the wall clock: a request's chain runs
 * without yielding and no other query runs beside it, so the CPU time between
 * its start and a check is its own (but for the small share of the thread
 * that reads HTTP meanwhile), and a machine busy with other programs does not
 * turn a legal query into a 503.
 */

/** Milliseconds of CPU this process has used (user and system). */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Far above the heaviest chain a user builds (a sort of every city: well under 1 s), far below a client's patience. */
export const DEFAULT_QUERY_BUDGET_MS = 5_000

/** Reading the clock on every comparison of a large sort would cost more than the sort. */
const TICKS_PER_CHECK = 4096

export class WorkBudget {
  private readonly deadline: number
  private ticks = 0

  constructor(
    readonly ms: number,
    private readonly now: () => number = cpuMs,
  ) {
    this.deadline = now() + ms
  }

  /** Refuses the request with a 503 once its time is up. */
  check(): void {
    if (this.now() > this.deadline) throw overBudget(this.ms)
  }

  /** For the inside of long loops and sort comparators: checks the clock every few thousand calls. */
  tick(): void {
    if (++this.ticks % TICKS_PER_CHECK === 0) this.check()
  }

  /** The same comparator, with a tick per comparison. */
  comparator<T>(compare: (a: T, b: T) => number): (a: T, b: T) => number {
    return (a, b) => {
      this.tick()
      return compare(a, b)
    }
  }
}

/** For callers outside a request (tests of the stages, tools): never runs out. */
export const UNLIMITED = new WorkBudget(Infinity)

function overBudget(ms: number): ServiceError {
  return new ServiceError(
    503,
    `Query over its time budget: answering it needs more than ${ms} ms of the service's work, the most one request may take. ` +
      'Narrow it (a more specific search, a filter before a sort, fewer stacked sort or triples steps) and try again.',
  )
}
