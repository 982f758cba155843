import { existsSync, renameSync } from 'node:fs'
import { basename } from 'node:path'
import { parentPort } from 'node:worker_threads'
import Database from 'libsql'
import { ExperimentRecordSchema } from '../../../shared/experiments/experiment-record'
import { ExplorerError } from '../../../shared/ipc/errors'
import { EvaluationSchema } from '../../../shared/relevance/evaluation'
import { EvaluationsTable } from './evaluations-table'
import { ExperimentsTable } from './experiments-table'
import { HistoryTable, OLD_HISTORY_FILE } from './history-table'
import { JudgeCacheTable } from './judge-cache-table'
import { importOldFolder } from './kept-import'
import { RatingsTable } from './ratings-table'
import { answerOp, type StoreTables } from './store-ops'
import { checkVersion, migrate, readVersion, scalar } from './schema'
import type { StoreInfo, StoreOpened, StoreReply, StoreRequest, StoreSettings } from './store-protocol'

/**
 * The data folder's database, on a thread of its own: the only connection
 * that writes it, so writes run one at a time in the order they came, and
 * the main thread never waits on the disk. A long read (scoring or writing
 * a kept evaluation's rankings) goes a page at a time and lets the requests
 * that came meanwhile (a rating's journal row) run between its pages.
 */
const port = parentPort!
let settings: StoreSettings

let db: Database.Database | null = null
let tables: StoreTables | null = null
let failure: string | null = null

/** SQLite's words for a file that is not a database, or one whose pages no longer read. */
function isDamaged(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || /file is not a database|malformed|corrupt/i.test((error as Error).message ?? '')
}

/** data.db.damaged (or .damaged-2, …), with its -wal and -shm beside it: kept for the user, never deleted. */
function setDamagedAside(file: string): string {
  let aside = `${file}.damaged`
  for (let n = 2; existsSync(aside); n++) aside = `${file}.damaged-${n}`
  renameSync(file, aside)
  for (const suffix of ['-wal', '-shm']) if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${aside}${suffix}`)
  return aside
}

function openAt(file: string): { db: Database.Database; mode: string } {
  // A writer waits up to 5 s for another connection's write (sqlite3 .backup, a second app) rather than failing at once.
  const opened = new Database(file, { timeout: 5_000 })
  try {
    // Read first: a damaged file or one from a newer app is refused before anything (the WAL switch) is written to it.
    checkVersion(opened)
    const mode = scalar(opened.prepare('PRAGMA journal_mode = WAL')) as string
    // FULL: a commit is on the disk when its reply goes, so nothing confirmed is lost, even to a power cut.
    opened.exec('PRAGMA synchronous = FULL')
    migrate(opened)
    return { db: opened, mode }
  } catch (error) {
    opened.close()
    throw error
  }
}

function open(): StoreInfo {
  const notes: string[] = []
  let opened: { db: Database.Database; mode: string }
  try {
    opened = openAt(settings.file)
  } catch (error) {
    // A file that is not a database (or whose pages don't read) would fail every call: it is set aside and a new one made.
    // One from a newer app is not damaged: it is left as it is, and refused.
    if (!isDamaged(error)) throw error
    const aside = setDamagedAside(settings.file)
    notes.push(
      `The data folder's database (${basename(settings.file)}) could not be read (${(error as Error).message}): it was set aside as ${basename(aside)}, kept for you, and a new one was made. History and kept evaluations and experiments start empty; the file set aside can be opened with sqlite3 to recover what it still holds.`,
    )
    opened = openAt(settings.file)
  }
  db = opened.db
  const history = new HistoryTable(db)
  const evaluations = new EvaluationsTable(db, settings.evaluationsKeep)
  const experiments = new ExperimentsTable(db, settings.experimentsKeep)
  tables = { history, ratings: new RatingsTable(db), evaluations, experiments, judgeCache: new JudgeCacheTable(db) }
  const imported: StoreInfo['imported'] = []
  const old = history.importOldFile(settings.dataDir, settings.historyKeep)
  if (old) imported.push({ file: OLD_HISTORY_FILE, records: old.imported })
  const kept = [
    { folder: 'evaluations', noun: 'evaluation', done: importOldFolder(db, settings.dataDir, 'evaluations', EvaluationSchema, (record) => evaluations.addWhole(record)) },
    { folder: 'experiments', noun: 'experiment', done: importOldFolder(db, settings.dataDir, 'experiments', ExperimentRecordSchema, (record) => experiments.add(record)) },
  ]
  for (const { folder, noun, done } of kept) {
    if (!done) continue
    imported.push({ file: `${folder}/`, records: done.imported, skipped: done.skipped })
    if (done.skipped > 0) {
      const files = done.skipped === 1 ? `1 ${noun} file did not read as one and was skipped` : `${done.skipped} ${noun} files did not read as one and were skipped`
      notes.push(`Kept ${noun}s were moved into the data folder's database: ${done.imported} imported; ${files}. They are kept as they were in the "${folder}.imported" folder.`)
    }
  }
  return { file: settings.file, version: readVersion(db), journalMode: opened.mode, imported, notes }
}

function answer(request: StoreRequest): unknown {
  if (failure !== null || !db || !tables) throw new Error(failure ?? 'the database is closed')
  if (request.op !== 'close') return answerOp(tables, request.op, request.args)
  db.close()
  db = null
  failure = 'the database is closed'
  return null
}

function start(): StoreOpened {
  try {
    return { id: 0, opened: true, info: open() }
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error)
    try {
      db?.close()
    } catch {
      // Closing what did not open says nothing more than the failure already does.
    }
    db = null
    return { id: 0, opened: false, message: failure }
  }
}

// The first message is the settings (data-store.ts); every later one a request.
port.once('message', (first: StoreSettings) => {
  settings = first
  port.postMessage(start())
  port.on('message', serve)
})

function serve(request: StoreRequest): void {
  const fail = (error: unknown) =>
    port.postMessage({
      id: request.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      code: error instanceof ExplorerError ? error.code : undefined,
    } satisfies StoreReply)
  let value: unknown
  try {
    value = answer(request)
  } catch (error) {
    return fail(error)
  }
  // A long read answers when its last page is done; the requests that came meanwhile have run between its pages.
  if (value instanceof Promise) value.then((done: unknown) => port.postMessage({ id: request.id, ok: true, value: done ?? null } satisfies StoreReply), fail)
  else port.postMessage({ id: request.id, ok: true, value: value ?? null } satisfies StoreReply)
}
