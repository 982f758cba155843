import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HistoryStore } from '../../src/main/history/history-store'
import { DATA_STORE_FILE, DataStore } from '../../src/main/storage/data-store/data-store'
import { OLD_HISTORY_FILE } from '../../src/main/storage/data-store/history-table'
import { SCHEMA_VERSION } from '../../src/main/storage/data-store/schema'
import { confirmedBeforeKill } from '../fixtures/killed-child'
import { historyEntry } from '../fixtures/history-entries'

/** The data folder's database over a real file and its real thread: open, migrate, import the old files once, survive a kill. */

describe('the data folder database', () => {
  let dir: string
  const open: DataStore[] = []
  const store = (options: { historyKeep?: number } = {}) => {
    const data = new DataStore(dir, options)
    open.push(data)
    return data
  }
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-data-store-'))
  })
  afterEach(async () => {
    await Promise.all(open.splice(0).map((data) => data.close()))
    rmSync(dir, { recursive: true, force: true })
  })

  it('opens a database at version 0, migrates it, and reopens it at the same version, in WAL mode', async () => {
    // A file another tool created: an SQLite database at version 0.
    const bare = new Database(join(dir, DATA_STORE_FILE))
    bare.exec('CREATE TABLE unrelated (x)')
    bare.close()
    const first = store()
    expect(await first.info()).toMatchObject({ version: SCHEMA_VERSION, journalMode: 'wal', imported: [] })
    await first.call('history.add', historyEntry(1), 1_000)
    await first.close()
    // A call after close fails at once, never waits for a thread that is gone.
    await expect(first.call('history.list', 1)).rejects.toThrow(/is not open: the database is closed/)
    const again = store()
    expect(await again.info()).toMatchObject({ version: SCHEMA_VERSION, journalMode: 'wal' })
    expect(await again.call('history.list', 10)).toEqual([historyEntry(1)])
    const raw = new Database(join(dir, DATA_STORE_FILE), { readonly: true })
    expect(raw.prepare('PRAGMA journal_mode').raw(true).get()).toEqual(['wal'])
    raw.close()
  })

  it('refuses a database from a newer app, leaving it as it is', async () => {
    const newer = new Database(join(dir, DATA_STORE_FILE))
    newer.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
    newer.close()
    const before = readFileSync(join(dir, DATA_STORE_FILE))
    const history = new HistoryStore(store())
    await expect(history.list()).rejects.toThrow(/newer than this app's/)
    expect(readFileSync(join(dir, DATA_STORE_FILE))).toEqual(before)
  })

  it('sets a damaged database aside, says so, and works on a new one', async () => {
    const damaged = Buffer.from('this is not an SQLite database, it was overwritten by something else\n'.repeat(100))
    writeFileSync(join(dir, DATA_STORE_FILE), damaged)
    const data = store()
    const history = new HistoryStore(data)
    // Every call works: the new database is empty, and the damaged one is kept beside it as it was.
    expect(await history.list()).toEqual([])
    await history.add(historyEntry(1))
    expect(await history.list()).toEqual([historyEntry(1)])
    expect(readFileSync(join(dir, `${DATA_STORE_FILE}.damaged`))).toEqual(damaged)
    const info = await data.info()
    expect(info.version).toBe(SCHEMA_VERSION)
    expect(info.notes).toEqual([
      `The data folder's database (${DATA_STORE_FILE}) could not be read (file is not a database): it was set aside as ${DATA_STORE_FILE}.damaged, kept for you, and a new one was made. History and kept evaluations and experiments start empty; the file set aside can be opened with sqlite3 to recover what it still holds.`,
    ])
    await data.close()
    // The next start opens the new one as it is: nothing more is set aside.
    const again = store()
    expect((await again.info()).notes).toEqual([])
    expect(await again.call('history.list', 10)).toEqual([historyEntry(1)])
    expect(existsSync(join(dir, `${DATA_STORE_FILE}.damaged-2`))).toBe(false)
  })

  it('imports history.jsonl once, skipping bad lines, and keeps it aside under another name', async () => {
    const old = `${JSON.stringify(historyEntry(1))}\nnot json at all\n{"id":"incomplete"}\n${JSON.stringify(historyEntry(2))}\n${JSON.stringify(historyEntry(1, 30))}\n{"id":"e3","at":"20`
    writeFileSync(join(dir, OLD_HISTORY_FILE), old)
    const history = new HistoryStore(store())
    // A later line of a run (Load more's pages) takes its first line's place, as the file was read.
    expect(await history.list()).toEqual([historyEntry(2), historyEntry(1, 30)])
    expect(existsSync(join(dir, OLD_HISTORY_FILE))).toBe(false)
    expect(readFileSync(join(dir, `${OLD_HISTORY_FILE}.imported`), 'utf8')).toBe(old)
    expect(await history.clear()).toEqual({ cleared: 2 })
    await open[0]!.close()

    // The same file back in its old place (a restored backup): renamed aside again, never imported twice.
    writeFileSync(join(dir, OLD_HISTORY_FILE), old)
    const again = store()
    expect((await again.info()).imported).toEqual([{ file: OLD_HISTORY_FILE, records: 2 }])
    expect(await again.call('history.list', 10)).toEqual([])
    expect(readFileSync(join(dir, `${OLD_HISTORY_FILE}.imported-2`), 'utf8')).toBe(old)
    expect(readFileSync(join(dir, `${OLD_HISTORY_FILE}.imported`), 'utf8')).toBe(old)
  })

  it('keeps the newest runs, and updates a run in its place', async () => {
    const history = new HistoryStore(store(), { keep: 3 })
    for (let n = 0; n < 5; n++) await history.add(historyEntry(n))
    expect(await history.update('e3', (e) => ({ ...e, pages: 2, itemCount: 20 }))).toMatchObject({ id: 'e3', pages: 2 })
    expect(await history.update('e0', (e) => e)).toBeNull()
    expect(await history.list()).toEqual([historyEntry(4), { ...historyEntry(3), pages: 2, itemCount: 20 }, historyEntry(2)])
  })

  it('answers main while a write waits on the disk: the write runs on the store thread', async () => {
    const data = store()
    await data.info()
    // Another connection holds the write lock, as sqlite3 .backup or a second app would.
    const other = new Database(join(dir, DATA_STORE_FILE))
    other.exec('BEGIN IMMEDIATE')
    let written = false
    const adding = data.call('history.add', historyEntry(1), 1_000).then(() => (written = true))
    // Main's event loop turns (here several times) while the store's thread waits for the lock.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(written).toBe(false)
    other.exec('COMMIT')
    other.close()
    await adding
    expect(await data.call('history.list', 10)).toEqual([historyEntry(1)])
  })

  it('loses no run it confirmed when its process is killed with SIGKILL', async () => {
    const module = pathToFileURL(resolve('src/main/storage/data-store/data-store.ts')).href
    // The child adds runs as fast as it can and prints each id once its add is confirmed.
    const code = `import(${JSON.stringify(module)}).then(async (loaded) => {
      const { DataStore } = loaded.DataStore ? loaded : loaded.default
      const data = new DataStore(${JSON.stringify(dir)})
      const base = ${JSON.stringify(historyEntry(0))}
      for (let n = 0; ; n++) {
        await data.call('history.add', { ...base, id: 'k' + n }, 100000)
        process.stdout.write('k' + n + '\\n')
      }
    })`
    const confirmed = await confirmedBeforeKill(code, 200)
    const kept = new Set((await store().call('history.list', 100_000)).map((e) => e.id))
    expect(confirmed.filter((id) => !kept.has(id))).toEqual([])
  })
})
