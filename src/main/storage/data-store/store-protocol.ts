import type { HistoryEntry } from '../../../shared/ipc/contract'
import type { JournalRating } from './ratings-table'

/** What the store's thread is started with. */
export interface StoreSettings {
  /** The database file. */
  file: string
  /** The data folder, where the old files imported once are looked for. */
  dataDir: string
  /** How many History runs are kept, the newest. */
  historyKeep: number
}

/** A request to the store's thread, each answered once by a StoreReply of the same `id`. */
export type StoreRequest = { id: number } & (
  | { op: 'history.add'; entry: HistoryEntry; keep: number }
  | { op: 'history.get'; entryId: string }
  | { op: 'history.put'; entry: HistoryEntry }
  | { op: 'history.list'; limit: number }
  | { op: 'history.clear' }
  | { op: 'ratings.add'; document: string; rating: JournalRating }
  | { op: 'ratings.since'; document: string; seq: number }
  | { op: 'ratings.trim'; document: string; seq: number }
  | { op: 'info' }
  | { op: 'close' }
)

export interface StoreInfo {
  file: string
  version: number
  journalMode: string
  /** What was imported from the old files at this open. */
  imported: { file: string; records: number }[]
}

export type StoreReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string }

/** Sent once, before any reply: the database opened (with what it imported), or why it could not. */
export type StoreOpened = { id: 0; opened: true; info: StoreInfo } | { id: 0; opened: false; message: string }
