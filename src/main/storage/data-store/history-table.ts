import { existsSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'libsql'
import { readJsonRow } from './json-rows'
import { scalar } from './schema'
import { HistoryEntrySchema, type HistoryEntry } from '../../../shared/ipc/contract'

/** The file History was kept in before the data folder had a database: imported once, then renamed aside. */
export const OLD_HISTORY_FILE = 'history.jsonl'
export const IMPORTED_SUFFIX = '.imported'

/** A row whose text no longer reads as an entry (written by hand, a damaged page) is left out, as a bad line was. */
const readEntry = (text: string): HistoryEntry | null => readJsonRow(text, HistoryEntrySchema)

/** History's rows in the data folder's database: one a run, newest last by `seq`. Runs on the store's thread only. */
export class HistoryTable {
  private readonly insert: Database.Statement
  private readonly replace: Database.Statement
  private readonly trim: Database.Statement
  private readonly newest: Database.Statement
  private readonly one: Database.Statement

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare('INSERT INTO history (id, entry) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET entry = excluded.entry')
    this.replace = db.prepare('UPDATE history SET entry = ? WHERE id = ?')
    // Keeps the newest `keep` rows: whatever sits below the keep-th newest goes.
    this.trim = db.prepare('DELETE FROM history WHERE seq <= (SELECT seq FROM history ORDER BY seq DESC LIMIT 1 OFFSET ?)')
    this.newest = db.prepare('SELECT entry FROM history ORDER BY seq DESC LIMIT ?').pluck()
    this.one = db.prepare('SELECT entry FROM history WHERE id = ?')
  }

  add(entry: HistoryEntry, keep: number): void {
    this.db.transaction(() => {
      this.insert.run(entry.id, JSON.stringify(entry))
      this.trim.run(keep)
    })()
  }

  get(id: string): HistoryEntry | null {
    const text = scalar(this.one, id) as string | undefined
    return text === undefined ? null : readEntry(text)
  }

  /** Writes the entry in its place; false when no such row is kept (cleared, or dropped as old). */
  put(entry: HistoryEntry): boolean {
    return this.replace.run(JSON.stringify(entry), entry.id).changes > 0
  }

  /** Newest first, at most `limit` readable entries. */
  list(limit: number): HistoryEntry[] {
    const found: HistoryEntry[] = []
    for (const text of this.newest.all(limit) as string[]) {
      const entry = readEntry(text)
      if (entry) found.push(entry)
    }
    return found
  }

  clear(): number {
    return this.db.prepare('DELETE FROM history').run().changes
  }

  /**
   * Imports history.jsonl once: its runs go in, in one transaction with the
   * record that they did, then the file is renamed aside (kept, never
   * deleted). A crash between the two leaves the record, so the next start
   * only renames. Bad lines are skipped as they were when read; a run's
   * later line (Load more's pages) replaces its earlier ones in their place.
   */
  importOldFile(dataDir: string, keep: number): { imported: number } | null {
    const path = join(dataDir, OLD_HISTORY_FILE)
    if (!existsSync(path)) return null
    const done = scalar(this.db.prepare('SELECT records FROM imported WHERE file = ?'), OLD_HISTORY_FILE) as number | undefined
    let imported = done ?? 0
    if (done === undefined) {
      const entries = parseOldFile(readFileSync(path, 'utf8')).slice(-keep)
      this.db.transaction(() => {
        for (const entry of entries) this.insert.run(entry.id, JSON.stringify(entry))
        this.trim.run(keep)
        this.db.prepare('INSERT INTO imported (file, at, records) VALUES (?, ?, ?)').run(OLD_HISTORY_FILE, new Date().toISOString(), entries.length)
      })()
      imported = entries.length
    }
    renameSync(path, asideName(path))
    return { imported }
  }
}

/** history.jsonl.imported, or .imported-2, … when an earlier one is there already: nothing is overwritten. */
export function asideName(path: string): string {
  let aside = `${path}${IMPORTED_SUFFIX}`
  for (let n = 2; existsSync(aside); n++) aside = `${path}${IMPORTED_SUFFIX}-${n}`
  return aside
}

/** The old file's entries, oldest first, as History read them: a later line of an id takes its first line's place. */
export function parseOldFile(text: string): HistoryEntry[] {
  const entries: HistoryEntry[] = []
  const places = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (!line) continue
    const entry = readEntry(line)
    if (!entry) continue
    const at = places.get(entry.id)
    if (at === undefined) places.set(entry.id, entries.push(entry) - 1)
    else entries[at] = entry
  }
  return entries
}
