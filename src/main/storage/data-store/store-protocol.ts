import type { ErrorCode } from '../../../shared/ipc/errors'
import type { StoreOp } from './store-ops'

/** Evaluations kept, the newest: each holds every query's ranking, so they are not kept without end. */
export const KEPT_EVALUATIONS = 100
/** Experiments kept, the newest; each side's evaluation is kept on its own. */
export const KEPT_EXPERIMENTS = 50

/** What the store's thread is started with. */
export interface StoreSettings {
  /** The database file. */
  file: string
  /** The data folder, where the old files imported once are looked for. */
  dataDir: string
  /** How many History runs are kept, the newest. */
  historyKeep: number
  /** How many evaluations and experiments are kept, the newest. */
  evaluationsKeep: number
  experimentsKeep: number
}

/**
 * What main asks of the store's thread: a table's method by name with its
 * arguments (typed per request at DataStore.call, from store-ops.ts), or the
 * close of the database.
 */
export type StoreCall = { op: StoreOp; args: readonly unknown[] } | { op: 'close' }

/** A call as it is sent, answered once by a StoreReply of the same `id`. */
export type StoreRequest = StoreCall & { id: number }

export interface StoreInfo {
  file: string
  version: number
  journalMode: string
  /** What was imported from the old files at this open; `skipped`: record files that did not read. */
  imported: { file: string; records: number; skipped?: number }[]
  /** What the open found wrong and did about it (a damaged database set aside, records skipped), in sentences for the log and the window. */
  notes: string[]
}

/** A failure with `code` is the request's own (bad input, a refusal: ExplorerError's code), told as it is; one without is the database's. */
export type StoreReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code?: ErrorCode | undefined }

/** Sent once, before any reply: the database opened (with what it imported), or why it could not. */
export type StoreOpened = { id: 0; opened: true; info: StoreInfo } | { id: 0; opened: false; message: string }
