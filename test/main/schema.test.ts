import Database from 'libsql'
import { describe, expect, it } from 'vitest'
import { checkVersion, migrate, readVersion, scalar, SCHEMA_VERSION } from '../../src/main/storage/data-store/schema'
import { useMigratedDb } from '../fixtures/migrated-db'

/** The data folder's database brought to the app's version one migration at a time; a newer one refused untouched. */

const tables = (db: Database.Database) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").raw(true).all() as string[][]).map(([name]) => name)

describe('the data store schema', () => {
  const migratedDb = useMigratedDb()

  it('migrates a new database to the app\'s version with every table, and a second time changes nothing', () => {
    const db = migratedDb()
    expect(readVersion(db)).toBe(SCHEMA_VERSION)
    expect(tables(db)).toEqual(['evaluation_rankings', 'evaluations', 'experiments', 'history', 'imported', 'judge_cache', 'ratings'])
    db.prepare("INSERT INTO history (id, entry) VALUES ('a', '{}')").run()
    migrate(db)
    expect([readVersion(db), scalar(db.prepare('SELECT count(*) FROM history'))]).toEqual([SCHEMA_VERSION, 1])
  })

  it('takes a database from an earlier version on from where it is, keeping its rows', () => {
    const db = new Database(':memory:')
    try {
      // Version 1 as an app of that version left it.
      db.exec("CREATE TABLE imported (file TEXT PRIMARY KEY, at TEXT NOT NULL, records INTEGER NOT NULL); CREATE TABLE history (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, entry TEXT NOT NULL); PRAGMA user_version = 1;")
      db.prepare("INSERT INTO history (id, entry) VALUES ('kept', '{}')").run()
      migrate(db)
      expect(readVersion(db)).toBe(SCHEMA_VERSION)
      expect(scalar(db.prepare('SELECT id FROM history'))).toBe('kept')
      expect(tables(db)).toContain('ratings')
    } finally {
      db.close()
    }
  })

  it('refuses a database a newer app wrote, before writing anything', () => {
    const db = new Database(':memory:')
    try {
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
      const message = `the database is at version ${SCHEMA_VERSION + 1}, newer than this app's ${SCHEMA_VERSION}; open it with a newer Query Explorer`
      expect(() => checkVersion(db)).toThrow(message)
      expect(() => migrate(db)).toThrow(message)
      expect(tables(db)).toEqual([])
    } finally {
      db.close()
    }
  })

  it('a migration that fails leaves the database at the version it had', () => {
    const db = new Database(':memory:')
    try {
      // A table of the second migration's name already there: that migration fails, the first one stays.
      db.exec('CREATE TABLE ratings (x INTEGER)')
      expect(() => migrate(db)).toThrow(/table ratings already exists/)
      expect(readVersion(db)).toBe(1)
      expect(tables(db)).toEqual(['history', 'imported', 'ratings'])
    } finally {
      db.close()
    }
  })

  it('scalar reads the first column of the first row, undefined for none', () => {
    const db = migratedDb()
    expect(scalar(db.prepare('SELECT 7, 8'))).toBe(7)
    expect(scalar(db.prepare('SELECT id FROM history WHERE id = ?'), 'none')).toBeUndefined()
  })
})
