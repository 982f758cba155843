import type { ExperimentRecord } from '../../../shared/experiments/experiment-record'
import type { HistoryEntry } from '../../../shared/ipc/contract'
import type { ErrorCode } from '../../../shared/ipc/errors'
import type { QueryRanking } from '../../../shared/relevance/evaluation'
import type { Judgment, MetricSettings, Scale } from '../../../shared/relevance/query-set'
import type { EvaluationStart } from './evaluations-table'
import type { JournalRating } from './ratings-table'

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
  | { op: 'evaluations.begin'; start: EvaluationStart }
  | { op: 'evaluations.rankings'; evaluationId: string; rankings: QueryRanking[] }
  | { op: 'evaluations.commit'; evaluationId: string }
  | { op: 'evaluations.abandon'; evaluationId: string }
  | { op: 'evaluations.list'; set?: string | undefined }
  | { op: 'evaluations.head'; evaluationId: string }
  | { op: 'evaluations.summary'; evaluationId: string }
  | { op: 'evaluations.page'; evaluationId: string; offset: number; limit: number }
  | { op: 'evaluations.ranking'; evaluationId: string; query: string }
  | { op: 'evaluations.remove'; evaluationId: string }
  | { op: 'evaluations.run-file'; evaluationId: string; path: string }
  | { op: 'evaluations.score'; evaluationId: string; judgments: Judgment[]; scale: Scale | undefined; settings: MetricSettings }
  | { op: 'evaluations.probability'; evaluationId: string; grades: [string, [string, number][]][]; threshold: number; share: number }
  | { op: 'experiments.add'; record: ExperimentRecord }
  | { op: 'experiments.list'; set?: string | undefined }
  | { op: 'experiments.get'; experimentId: string }
  | { op: 'info' }
  | { op: 'close' }
)

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
