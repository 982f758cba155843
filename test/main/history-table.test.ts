import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { asideName, HistoryTable, OLD_HISTORY_FILE, parseOldFile } from '../../src/main/storage/data-store/history-table'
import type { HistoryEntry } from '../../src/shared/ipc/contract'
import { historyEntry } from '../fixtures/history-entries'
import { useMigratedDb } from '../fixtures/migrated-db'
import { useTempDirs } from '../fixtures/temp-dirs'

/** History's rows: one a run, newest first, the newest `keep` kept; the old history.jsonl imported once and set aside. */

const entry = historyEntry
const ids = (entries: HistoryEntry[]) => entries.map((each) => each.id)

describe('HistoryTable', () => {
  const migratedDb = useMigratedDb()
  const tempDir = useTempDirs('qe-history-table')

  it('lists the newest first, keeps the newest `keep`, and an entry added again takes its new text in its old place', () => {
    const table = new HistoryTable(migratedDb())
    for (let n = 1; n <= 4; n++) table.add(entry(n), 3)
    expect(ids(table.list(10))).toEqual(['e4', 'e3', 'e2'])
    expect(ids(table.list(2))).toEqual(['e4', 'e3'])
    table.add(entry(3, 99), 3)
    expect(ids(table.list(10))).toEqual(['e4', 'e3', 'e2'])
    expect(table.get('e3')?.itemCount).toBe(99)
    expect(table.get('e1')).toBeNull()
  })

  it('puts an entry in its place only while it is kept; clears all', () => {
    const table = new HistoryTable(migratedDb())
    table.add(entry(1), 10)
    expect(table.put({ ...entry(1), pages: 3 })).toBe(true)
    expect(table.get('e1')?.pages).toBe(3)
    expect(table.put(entry(2))).toBe(false)
    expect(table.clear()).toBe(1)
    expect(table.list(10)).toEqual([])
  })

  it('leaves out a row that no longer reads as an entry', () => {
    const db = migratedDb()
    const table = new HistoryTable(db)
    table.add(entry(1), 10)
    db.prepare("INSERT INTO history (id, entry) VALUES ('bad', '{\"id\":\"bad\"}')").run()
    expect(ids(table.list(10))).toEqual(['e1'])
    expect(table.get('bad')).toBeNull()
  })

  it('reads the old file as History did: bad lines skipped, a later line of a run in its first place', () => {
    const text = [JSON.stringify(entry(1)), 'not json', JSON.stringify(entry(2)), '', JSON.stringify(entry(1, 7)), '{"id":"x"}'].join('\n')
    expect(parseOldFile(text).map((each) => [each.id, each.itemCount])).toEqual([
      ['e1', 7],
      ['e2', 1],
    ])
  })

  it('imports history.jsonl once, its newest `keep` runs, and sets it aside without overwriting an earlier one', () => {
    const dir = tempDir()
    const table = new HistoryTable(migratedDb())
    expect(table.importOldFile(dir, 10)).toBeNull()
    const path = join(dir, OLD_HISTORY_FILE)
    writeFileSync(`${path}.imported`, 'an earlier import')
    writeFileSync(path, [1, 2, 3].map((n) => JSON.stringify(entry(n))).join('\n'))
    expect(table.importOldFile(dir, 2)).toEqual({ imported: 2 })
    expect(ids(table.list(10))).toEqual(['e3', 'e2'])
    expect(readdirSync(dir).sort()).toEqual(['history.jsonl.imported', 'history.jsonl.imported-2'])
    expect(readFileSync(`${path}.imported`, 'utf8')).toBe('an earlier import')

    // The file back again (a crash after the import, before the rename): it is only set aside, not imported twice.
    writeFileSync(path, JSON.stringify(entry(9)))
    expect(table.importOldFile(dir, 2)).toEqual({ imported: 2 })
    expect(ids(table.list(10))).toEqual(['e3', 'e2'])
    expect(existsSync(path)).toBe(false)
    expect(asideName(path)).toBe(`${path}.imported-4`)
  })
})
