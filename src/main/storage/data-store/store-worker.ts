import { parentPort } from 'node:worker_threads'
import Database from 'libsql'
import { HistoryTable, OLD_HISTORY_FILE } from './history-table'
import { RatingsTable } from './ratings-table'
import { checkVersion, migrate, readVersion, scalar } from './schema'
import type { StoreInfo, StoreOpened, StoreReply, StoreRequest, StoreSettings } from './store-protocol'

/**
 * The data folder's database, on a thread of its own: the only connection
 * that writes it, so requests run one at a time in the order they came,
 * and the main thread never waits on the disk.
 */
const port = parentPort!
let settings: StoreSettings

let db: Database.Database | null = null
let history: HistoryTable | null = null
let ratings: RatingsTable | null = null
let failure: string | null = null

function open(): StoreInfo {
  // A writer waits up to 5 s for another connection's write (sqlite3 .backup, a second app) rather than failing at once.
  db = new Database(settings.file, { timeout: 5_000 })
  // Read first: a damaged file or one from a newer app is refused before anything (the WAL switch) is written to it.
  checkVersion(db)
  const mode = scalar(db.prepare('PRAGMA journal_mode = WAL')) as string
  // FULL: a commit is on the disk when its reply goes, so nothing confirmed is lost, even to a power cut.
  db.exec('PRAGMA synchronous = FULL')
  migrate(db)
  history = new HistoryTable(db)
  ratings = new RatingsTable(db)
  const imported: StoreInfo['imported'] = []
  const old = history.importOldFile(settings.dataDir, settings.historyKeep)
  if (old) imported.push({ file: OLD_HISTORY_FILE, records: old.imported })
  return { file: settings.file, version: readVersion(db), journalMode: mode, imported }
}

function answer(request: StoreRequest): unknown {
  if (failure !== null || !db || !history || !ratings) throw new Error(failure ?? 'the database is closed')
  switch (request.op) {
    case 'history.add':
      return history.add(request.entry, request.keep)
    case 'history.get':
      return history.get(request.entryId)
    case 'history.put':
      return history.put(request.entry)
    case 'history.list':
      return history.list(request.limit)
    case 'history.clear':
      return history.clear()
    case 'ratings.add':
      return ratings.add(request.document, request.rating)
    case 'ratings.since':
      return ratings.since(request.document, request.seq)
    case 'ratings.trim':
      return ratings.trimTo(request.document, request.seq)
    case 'info':
      return { file: settings.file, version: readVersion(db), journalMode: scalar(db.prepare('PRAGMA journal_mode')) as string, imported: [] }
    case 'close':
      db.close()
      db = null
      failure = 'the database is closed'
      return null
  }
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
  let reply: StoreReply
  try {
    reply = { id: request.id, ok: true, value: answer(request) ?? null }
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
}
