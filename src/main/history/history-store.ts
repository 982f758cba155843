import type { HistoryEntry } from '../../shared/ipc/contract'
import { matchesHistoryText } from '../../shared/history/history-list'
import { DataStore } from '../storage/data-store/data-store'
import { WriteQueue } from '../storage/write-queue'

export { OLD_HISTORY_FILE } from '../storage/data-store/history-table'

export interface HistoryStoreOptions {
  /** How many runs are kept, the newest. */
  keep?: number
}

/**
 * The run history, a row a run in the data folder's database (DataStore),
 * which the store's thread reads and writes: a run costs one insert, a page
 * Load more adds one update of its run's row, in its place.
 */
export class HistoryStore {
  private readonly data: DataStore
  /** Whether this store opened the database itself (given a folder), so closes it. */
  private readonly owns: boolean
  private readonly keep: number
  /** Calls run one after another, so an update's read and write never interleave with another's. */
  private readonly queue = new WriteQueue()

  /** `data`: the app's DataStore, or a data folder to open one in (tests, tools). */
  constructor(data: DataStore | string, options: HistoryStoreOptions = {}) {
    this.keep = options.keep ?? 1_000
    this.owns = typeof data === 'string'
    this.data = typeof data === 'string' ? new DataStore(data, { historyKeep: this.keep }) : data
  }

  /** Why the database could not be opened (logged by the app; every call then fails saying so), or null once it has. */
  async problem(): Promise<string | null> {
    return this.data.info().then(
      () => null,
      (error: Error) => error.message,
    )
  }

  /** The database History is kept in. */
  get file(): string {
    return this.data.file
  }

  add(entry: HistoryEntry): Promise<void> {
    return this.serial(() => this.data.call('history.add', entry, this.keep))
  }

  /**
   * Changes the kept entry `id` (a run Load more added pages to) in its place
   * in the list; null when no such entry is kept (cleared, or dropped as old).
   */
  update(id: string, change: (entry: HistoryEntry) => HistoryEntry): Promise<HistoryEntry | null> {
    return this.serial(async () => {
      const entry = await this.data.call('history.get', id)
      if (!entry) return null
      const changed = { ...change(entry), id }
      return (await this.data.call('history.put', changed)) ? changed : null
    })
  }

  /** Newest first, at most `limit`, those matching `text`. */
  list(query: { text?: string | undefined; limit?: number | undefined } = {}): Promise<HistoryEntry[]> {
    return this.serial(async () => {
      const limit = Math.min(query.limit ?? this.keep, this.keep)
      const text = query.text ?? ''
      const entries = await this.data.call('history.list', this.keep)
      return entries.filter((entry) => matchesHistoryText(entry, text)).slice(0, limit)
    })
  }

  clear(): Promise<{ cleared: number }> {
    return this.serial(async () => ({ cleared: await this.data.call('history.clear') }))
  }

  /** Closes the database when this store opened it; the app's DataStore is the app's to close. */
  async close(): Promise<void> {
    await this.queue.idle()
    if (this.owns) await this.data.close()
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.run(work)
  }
}
