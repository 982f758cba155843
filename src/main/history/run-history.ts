import type { HistoryEntry } from '../../shared/ipc/contract'
import type { Logger } from '../logging/logger'
import type { HistoryStore } from './history-store'
import { historyEntry, wasCancelled, withPage, type RunOutcome } from './run-record'

/**
 * Runs whose pages Load more may still ask for. A window continues only the
 * run whose rows it shows, so a handful per window would do; older runs'
 * pages become entries of their own, which loses nothing.
 */
const REMEMBERED_RUNS = 100

/** A run History holds an entry for, as its pages come in. */
interface KnownRun {
  entryId: string
  /** When the last of its requests so far came back (ms since the epoch): time before it is counted already. */
  busyUntil: number
}

const endOf = (outcome: RunOutcome) => outcome.startedAt + outcome.durationMs

/**
 * What History records of the runs the handler table answers: one entry a
 * run, however many pages Load more adds to it. Each page was an entry of
 * its own, so loading 1,000 rows listed 11 runs the user never started.
 */
export class RunHistory {
  /** The run's first page's requestId → its entry. */
  private readonly runs = new Map<string, KnownRun>()

  constructor(
    private readonly store: HistoryStore,
    private readonly log: Logger,
  ) {}

  /**
   * Records the run asked as `requestId`, or, when it `continues` an earlier
   * run, adds it to that run's entry; gives the entry as written, for the
   * run's reply to carry (null when nothing was written). Never throws: a
   * History that cannot be written must not cost the user the answer.
   */
  async record(requestId: string, outcome: RunOutcome, continues?: string): Promise<HistoryEntry | null> {
    try {
      if (continues === undefined) return await this.start(requestId, outcome)
      // A page the window stopped (past the end of the rows, Stop loading) is no part of what the run covers.
      if (wasCancelled(outcome)) return null
      return await this.addPage(continues, outcome)
    } catch (e) {
      this.log.error(`history: ${e instanceof Error ? e.message : String(e)}`)
      return null
    }
  }

  private async start(runId: string, outcome: RunOutcome): Promise<HistoryEntry> {
    const entry = historyEntry(outcome)
    // Known before the entry is written: the run's next page may come back while it is.
    this.runs.delete(runId)
    this.runs.set(runId, { entryId: entry.id, busyUntil: endOf(outcome) })
    if (this.runs.size > REMEMBERED_RUNS) this.runs.delete(this.runs.keys().next().value!)
    await this.store.add(entry)
    return entry
  }

  /**
   * Adds the page to its run's entry. A run not known (an older window's) or
   * whose entry is gone (cleared) starts an entry of its own with this page,
   * which its later pages join.
   */
  private async addPage(runId: string, page: RunOutcome): Promise<HistoryEntry> {
    for (;;) {
      const run = this.runs.get(runId)
      if (!run) return this.start(runId, page)
      const updated = await this.store.update(run.entryId, (entry) => {
        // Pages are asked a few at once: only the time beyond what the run's earlier requests spanned is added.
        const added = Math.max(0, endOf(page) - Math.max(page.startedAt, run.busyUntil))
        run.busyUntil = Math.max(run.busyUntil, endOf(page))
        return withPage(entry, page, added)
      })
      if (updated) return updated
      // Unless another page of the run started a new entry meanwhile (then this one joins it), this page starts one.
      if (this.runs.get(runId) === run) return this.start(runId, page)
    }
  }
}
