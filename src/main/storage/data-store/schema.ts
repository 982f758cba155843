import type Database from 'libsql'

/**
 * The data folder's database, one version at a time. A migration runs once,
 * in a transaction with the version it brings, so a database is always at
 * one version or the next, never between. Each kind of record gets a table
 * of its own; never edit a migration that has shipped, add the next one.
 */
const MIGRATIONS: readonly string[] = [
  // 1: what was imported once from the old files; History, one row a run, its place (seq) kept when Load more changes it.
  `CREATE TABLE imported (file TEXT PRIMARY KEY, at TEXT NOT NULL, records INTEGER NOT NULL);
   CREATE TABLE history (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, entry TEXT NOT NULL);`,
  // 2: the journal of ratings of the open document (ratings-table.ts), a rating a row; grade NULL clears one.
  `CREATE TABLE ratings (seq INTEGER PRIMARY KEY AUTOINCREMENT, document TEXT NOT NULL, set_name TEXT NOT NULL, query TEXT NOT NULL,
     item TEXT NOT NULL, grade INTEGER, by TEXT, at TEXT NOT NULL);
   CREATE INDEX ratings_document ON ratings (document, seq);`,
  // 3: kept evaluations (evaluations-table.ts), a row each: its summary for lists and its head (all but the rankings);
  // their rankings a query a row, read a page at a time by ordinal; kept experiments (experiments-table.ts), a row each.
  `CREATE TABLE evaluations (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, set_name TEXT NOT NULL,
     summary TEXT NOT NULL, head TEXT NOT NULL, rankings INTEGER NOT NULL);
   CREATE TABLE evaluation_rankings (evaluation_id TEXT NOT NULL, ordinal INTEGER NOT NULL, query_id TEXT NOT NULL, ranking TEXT NOT NULL,
     PRIMARY KEY (evaluation_id, ordinal));
   CREATE INDEX evaluation_rankings_query ON evaluation_rankings (evaluation_id, query_id);
   CREATE TABLE experiments (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, set_name TEXT NOT NULL,
     summary TEXT NOT NULL, record TEXT NOT NULL);`,
  // 4: an LLM judge's rating keeps the model's explanation and the prompt's digest (JSON, null for a person's);
  // the judges' answers cached by what produced them (judge-cache-table.ts), so judging again costs no call.
  `ALTER TABLE ratings ADD COLUMN notes TEXT;
   CREATE TABLE judge_cache (key TEXT PRIMARY KEY, grade INTEGER NOT NULL, explanation TEXT NOT NULL, prompt_digest TEXT NOT NULL, at TEXT NOT NULL);`,
]

export const SCHEMA_VERSION = MIGRATIONS.length

/** Brings the database from whatever version it has to SCHEMA_VERSION; refuses one written by a newer app. */
export function migrate(db: Database.Database): void {
  const from = checkVersion(db)
  for (let version = from; version < SCHEMA_VERSION; version++) {
    db.exec('BEGIN IMMEDIATE')
    try {
      db.exec(MIGRATIONS[version]!)
      db.exec(`PRAGMA user_version = ${version + 1}`)
      db.exec('COMMIT')
    } catch (error) {
      db.exec('ROLLBACK')
      throw error
    }
  }
}

/** The database's version; throws, before anything is written, when a newer app wrote it. */
export function checkVersion(db: Database.Database): number {
  const version = readVersion(db)
  if (version > SCHEMA_VERSION) {
    throw new Error(`the database is at version ${version}, newer than this app's ${SCHEMA_VERSION}; open it with a newer Query Explorer`)
  }
  return version
}

export function readVersion(db: Database.Database): number {
  return Number(scalar(db.prepare('PRAGMA user_version')) ?? 0)
}

/** The first column of the first row, or undefined: libsql's pluck() applies to all() only, so a row is read raw. */
export function scalar(statement: Database.Statement, ...params: unknown[]): unknown {
  const row = statement.raw(true).get(...params) as unknown[] | undefined
  return row?.[0]
}
