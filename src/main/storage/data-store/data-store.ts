import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import type { HistoryEntry } from '../../../shared/ipc/contract'
import { ExplorerError } from '../../../shared/ipc/errors'
import { startWorkerThread } from '../../jobs/worker-entry'
import type { ExperimentRecord, ExperimentSummary } from '../../../shared/experiments/experiment-record'
import type { CutoffResult, ProbabilityBand } from '../../../shared/experiments/probability-bands'
import type { QueryRanking, Scored } from '../../../shared/relevance/evaluation'
import type { EvaluationHead, RankingPage } from '../../../shared/relevance/evaluation-head'
import type { EvaluationSummary } from '../../../shared/relevance/evaluation-summary'
import type { Judgment, MetricSettings, Scale } from '../../../shared/relevance/query-set'
import type { EvaluationStart } from './evaluations-table'
import type { JournaledRating, JournalRating } from './ratings-table'
import { KEPT_EVALUATIONS, KEPT_EXPERIMENTS, type StoreInfo, type StoreOpened, type StoreReply, type StoreRequest, type StoreSettings } from './store-protocol'

/** The database in the data folder (README: "Where your data lives"). */
export const DATA_STORE_FILE = 'data.db'

/** The built entry (electron.vite.config.ts: `data-store`). */
const BUILT_ENTRY = 'data-store.js'

type Request = StoreRequest extends infer R ? (R extends StoreRequest ? Omit<R, 'id'> : never) : never

/**
 * The main thread's side of the data folder's database: every call is a
 * message to the store's thread (store-worker.ts), answered when the thread
 * has done it, so main never waits on the disk. Requests run in the order
 * they are sent (a long read, scoring or writing a kept evaluation, lets
 * those sent after it run between its pages). A file that is not a
 * database is set aside and a new one made (StoreInfo.notes says so); one
 * from a newer app is left as it is on disk: every call then fails saying so.
 */
export class DataStore {
  readonly file: string
  private readonly worker: Worker | null
  /** Why the thread is gone (closed, crashed, never started): later calls fail at once saying so. */
  private gone: string | null = null
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  private nextId = 1
  private closed: Promise<void> | null = null
  /** Resolves with what the open found; never rejects (a failed open is answered per call). */
  readonly opened: Promise<StoreOpened>

  constructor(dataDir: string, options: { historyKeep?: number; evaluationsKeep?: number; experimentsKeep?: number } = {}) {
    this.file = join(dataDir, DATA_STORE_FILE)
    let openedNow: (opened: StoreOpened) => void
    this.opened = new Promise((resolve) => (openedNow = resolve))
    let worker: Worker
    try {
      worker = startWorkerThread({ caller: __filename, source: 'store-worker.ts', built: BUILT_ENTRY, what: "The data folder's database" })
    } catch (error) {
      // A thread that cannot start (its built entry missing) costs History, never the app's start.
      this.worker = null
      this.gone = (error as Error).message
      openedNow!({ id: 0, opened: false, message: this.gone })
      return
    }
    this.worker = worker
    worker.on('message', (message: StoreReply | StoreOpened) => {
      if (message.id === 0) {
        // An idle store never keeps a process alive; one with calls on the way does.
        if (this.waiting.size === 0) worker.unref()
        return openedNow(message as StoreOpened)
      }
      const reply = message as StoreReply
      const call = this.waiting.get(reply.id)
      if (!call) return
      this.waiting.delete(reply.id)
      if (this.waiting.size === 0) worker.unref()
      if (reply.ok) call.resolve(reply.value)
      else if (reply.code) call.reject(new ExplorerError(reply.code, reply.message))
      else call.reject(new ExplorerError('internal', `The data folder's database (${this.file}) could not be read or written: ${reply.message}`))
    })
    const stopped = (why: string) => {
      this.gone ??= why
      openedNow({ id: 0, opened: false, message: why })
      for (const call of this.waiting.values()) call.reject(new ExplorerError('internal', `The data folder's database stopped: ${why}`))
      this.waiting.clear()
    }
    worker.on('error', (error) => stopped(error.message))
    worker.on('exit', (code) => stopped(`its thread exited (code ${code})`))
    // The settings go as the first message: the thread entry is started the same way from sources and built.
    const settings: StoreSettings = {
      file: this.file,
      dataDir,
      historyKeep: options.historyKeep ?? 1_000,
      evaluationsKeep: options.evaluationsKeep ?? KEPT_EVALUATIONS,
      experimentsKeep: options.experimentsKeep ?? KEPT_EXPERIMENTS,
    }
    worker.postMessage(settings)
  }

  /** What the open found: the version, the journal mode, what was imported; rejects when it could not open. */
  async info(): Promise<StoreInfo> {
    const opened = await this.opened
    if (!opened.opened) throw this.openFailure(opened.message)
    return opened.info
  }

  historyAdd(entry: HistoryEntry, keep: number): Promise<void> {
    return this.call({ op: 'history.add', entry, keep }) as Promise<void>
  }

  historyGet(entryId: string): Promise<HistoryEntry | null> {
    return this.call({ op: 'history.get', entryId }) as Promise<HistoryEntry | null>
  }

  historyPut(entry: HistoryEntry): Promise<boolean> {
    return this.call({ op: 'history.put', entry }) as Promise<boolean>
  }

  historyList(limit: number): Promise<HistoryEntry[]> {
    return this.call({ op: 'history.list', limit }) as Promise<HistoryEntry[]>
  }

  historyClear(): Promise<number> {
    return this.call({ op: 'history.clear' }) as Promise<number>
  }

  /** Appends a rating of the open document to the journal; resolves with its seq once it is on the disk. */
  ratingAdd(document: string, rating: JournalRating): Promise<number> {
    return this.call({ op: 'ratings.add', document, rating }) as Promise<number>
  }

  /** The document's journaled ratings after `seq`, oldest first. */
  ratingsSince(document: string, seq: number): Promise<JournaledRating[]> {
    return this.call({ op: 'ratings.since', document, seq }) as Promise<JournaledRating[]>
  }

  /** Drops the document's journaled ratings up to `seq`: the session file holds them now. */
  ratingsTrim(document: string, seq: number): Promise<number> {
    return this.call({ op: 'ratings.trim', document, seq }) as Promise<number>
  }

  /** Starts keeping an evaluation: all but its rankings, checked in the store's thread; the rankings follow. */
  evaluationBegin(start: EvaluationStart): Promise<void> {
    return this.call({ op: 'evaluations.begin', start }) as Promise<void>
  }

  /** The next rankings of the evaluation begun, in order. */
  evaluationRankings(evaluationId: string, rankings: QueryRanking[]): Promise<void> {
    return this.call({ op: 'evaluations.rankings', evaluationId, rankings }) as Promise<void>
  }

  /** The evaluation begun is kept and listed from now on; its summary. */
  evaluationCommit(evaluationId: string): Promise<EvaluationSummary> {
    return this.call({ op: 'evaluations.commit', evaluationId }) as Promise<EvaluationSummary>
  }

  evaluationAbandon(evaluationId: string): Promise<void> {
    return this.call({ op: 'evaluations.abandon', evaluationId }) as Promise<void>
  }

  /** Kept evaluations' summaries, newest first, of one set when named. */
  evaluationList(set?: string): Promise<EvaluationSummary[]> {
    return this.call({ op: 'evaluations.list', set }) as Promise<EvaluationSummary[]>
  }

  evaluationSummary(evaluationId: string): Promise<EvaluationSummary | null> {
    return this.call({ op: 'evaluations.summary', evaluationId }) as Promise<EvaluationSummary | null>
  }

  evaluationHead(evaluationId: string): Promise<EvaluationHead | null> {
    return this.call({ op: 'evaluations.head', evaluationId }) as Promise<EvaluationHead | null>
  }

  evaluationPage(evaluationId: string, offset: number, limit: number): Promise<RankingPage | null> {
    return this.call({ op: 'evaluations.page', evaluationId, offset, limit }) as Promise<RankingPage | null>
  }

  evaluationRanking(evaluationId: string, query: string): Promise<QueryRanking | null> {
    return this.call({ op: 'evaluations.ranking', evaluationId, query }) as Promise<QueryRanking | null>
  }

  evaluationRemove(evaluationId: string): Promise<boolean> {
    return this.call({ op: 'evaluations.remove', evaluationId }) as Promise<boolean>
  }

  /** Writes the kept evaluation as a TREC run file at `path`, in the store's thread; null when none is kept by that id. */
  evaluationRunFile(evaluationId: string, path: string): Promise<{ queries: number } | null> {
    return this.call({ op: 'evaluations.run-file', evaluationId, path }) as Promise<{ queries: number } | null>
  }

  /** The kept rankings scored with these judgments, in the store's thread; null when none is kept by that id. */
  evaluationScore(evaluationId: string, judgments: Judgment[], scale: Scale | undefined, settings: MetricSettings): Promise<Scored | null> {
    return this.call({ op: 'evaluations.score', evaluationId, judgments, scale, settings }) as Promise<Scored | null>
  }

  evaluationProbability(
    evaluationId: string,
    grades: [string, [string, number][]][],
    threshold: number,
    share: number,
  ): Promise<{ hasProbabilities: boolean; bands: ProbabilityBand[]; cutoff: CutoffResult | null } | null> {
    return this.call({ op: 'evaluations.probability', evaluationId, grades, threshold, share }) as Promise<{
      hasProbabilities: boolean
      bands: ProbabilityBand[]
      cutoff: CutoffResult | null
    } | null>
  }

  experimentAdd(record: ExperimentRecord): Promise<ExperimentSummary> {
    return this.call({ op: 'experiments.add', record }) as Promise<ExperimentSummary>
  }

  experimentList(set?: string): Promise<ExperimentSummary[]> {
    return this.call({ op: 'experiments.list', set }) as Promise<ExperimentSummary[]>
  }

  experimentGet(experimentId: string): Promise<ExperimentRecord | null> {
    return this.call({ op: 'experiments.get', experimentId }) as Promise<ExperimentRecord | null>
  }

  /** Closes the database (its WAL is checkpointed into the file) and stops the thread. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      try {
        if ((await this.opened).opened && !this.gone) await this.call({ op: 'close' })
      } finally {
        this.gone = 'the database is closed'
        await this.worker?.terminate()
      }
    })()
    return this.closed
  }

  private async call(request: Request): Promise<unknown> {
    const opened = await this.opened
    if (!opened.opened) throw this.openFailure(opened.message)
    if (this.gone !== null || !this.worker) throw new ExplorerError('internal', `The data folder's database (${this.file}) is not open: ${this.gone}.`)
    const worker = this.worker
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ ...request, id })
    })
  }

  private openFailure(message: string): ExplorerError {
    return new ExplorerError('internal', `The data folder's database (${this.file}) could not be opened: ${message}. It is kept as it is; nothing in it was changed.`)
  }
}
