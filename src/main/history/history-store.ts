import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { HistoryEntrySchema, type HistoryEntry } from '../../shared/ipc/contract'
import { writeFileAtomic } from '../storage/atomic-file'

export const HISTORY_FILE = 'history.jsonl'

export interface HistoryStoreOptions {
  /** How many runs are kept, the newest. */
  keep?: number
  /** The file is compacted to `keep` lines once it holds more than this, so most runs cost one append. */
  compactAbove?: number
}

/** Does this entry's connection, API, config, URL or status contain the text (any case)? */
export function matchesHistoryText(entry: HistoryEntry, text: string): boolean {
  const needle = text.trim().toLowerCase()
  if (!needle) return true
  const status = entry.status !== null ? String(entry.status) : `${entry.error?.code ?? ''} ${entry.error?.message ?? ''}`
  return [entry.connectionName, entry.api, entry.config, entry.url, status].some((field) => field.toLowerCase().includes(needle))
}

/**
 * The run history in the data folder, one JSON object a line. A run costs one
 * append, so a crash can at worst leave a half-written last line: it is
 * skipped when read, as is any line that does not read as an entry.
 */
export class HistoryStore {
  private readonly path: string
  private readonly keep: number
  private readonly compactAbove: number
  private entries: HistoryEntry[] | null = null
  /** Lines in the file, good or bad: compaction is due when they pass `compactAbove`. */
  private lines = 0
  /** Whether the file ends mid-line (a crash during an append): the next append starts a new line first. */
  private ragged = false
  /** Writes run one after another, so appends and compactions never interleave. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(dataDir: string, options: HistoryStoreOptions = {}) {
    this.path = join(dataDir, HISTORY_FILE)
    this.keep = options.keep ?? 1_000
    this.compactAbove = Math.max(options.compactAbove ?? 1_200, this.keep)
  }

  get file(): string {
    return this.path
  }

  add(entry: HistoryEntry): Promise<void> {
    return this.serial(async () => {
      const entries = await this.load()
      entries.push(entry)
      if (entries.length > this.keep) entries.splice(0, entries.length - this.keep)
      await this.append(entries, entry)
    })
  }

  /**
   * Changes the kept entry `id` (a run Load more added pages to) in its place
   * in the list; null when no such entry is kept (cleared, or dropped as old).
   * The new version is appended like a run, and a later line of an id
   * replaces its earlier ones when read, so a page costs one append too.
   */
  update(id: string, change: (entry: HistoryEntry) => HistoryEntry): Promise<HistoryEntry | null> {
    return this.serial(async () => {
      const entries = await this.load()
      const at = entries.findIndex((entry) => entry.id === id)
      if (at < 0) return null
      const changed = { ...change(entries[at]!), id }
      entries[at] = changed
      await this.append(entries, changed)
      return changed
    })
  }

  /** Newest first, at most `limit`, those matching `text`. */
  list(query: { text?: string | undefined; limit?: number | undefined } = {}): Promise<HistoryEntry[]> {
    return this.serial(async () => {
      const limit = Math.min(query.limit ?? this.keep, this.keep)
      const text = query.text ?? ''
      const found: HistoryEntry[] = []
      const entries = await this.load()
      for (let i = entries.length - 1; i >= 0 && found.length < limit; i--) {
        if (matchesHistoryText(entries[i]!, text)) found.push(entries[i]!)
      }
      return found
    })
  }

  clear(): Promise<{ cleared: number }> {
    return this.serial(async () => {
      const cleared = (await this.load()).length
      await this.rewrite([])
      return { cleared }
    })
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }

  /** Writes `entry` at the file's end, or the whole list once the file has grown past `compactAbove` lines. */
  private async append(entries: HistoryEntry[], entry: HistoryEntry): Promise<void> {
    if (this.lines + 1 > this.compactAbove) {
      await this.rewrite(entries)
      return
    }
    await fs.appendFile(this.path, `${this.ragged ? '\n' : ''}${JSON.stringify(entry)}\n`, { encoding: 'utf8', mode: 0o600 })
    this.ragged = false
    this.lines++
  }

  private async rewrite(entries: HistoryEntry[]): Promise<void> {
    await writeFileAtomic(this.path, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''))
    this.entries = entries
    this.lines = entries.length
    this.ragged = false
  }

  private async load(): Promise<HistoryEntry[]> {
    if (this.entries) return this.entries
    let text = ''
    try {
      text = await fs.readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    const lines = text.split('\n')
    if (lines.at(-1) === '') lines.pop()
    else this.ragged = lines.length > 0
    this.lines = lines.length
    const entries: HistoryEntry[] = []
    // A run's later versions (pages Load more added) take the place of its first line.
    const places = new Map<string, number>()
    for (const line of lines) {
      const entry = readLine(line)
      if (!entry) continue
      const at = places.get(entry.id)
      if (at === undefined) places.set(entry.id, entries.push(entry) - 1)
      else entries[at] = entry
    }
    this.entries = entries.slice(-this.keep)
    return this.entries
  }
}

function readLine(line: string): HistoryEntry | null {
  try {
    const parsed = HistoryEntrySchema.safeParse(JSON.parse(line))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
