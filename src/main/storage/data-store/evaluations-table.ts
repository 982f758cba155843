import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import type Database from 'libsql'
import { cutoffKeeping, probabilityBands, type CutoffResult, type ProbabilityBand } from '../../../shared/experiments/probability-bands'
import { EvaluationSchema, QueryRankingSchema, rankingScorer, type Evaluation, type QueryRanking, type Scored } from '../../../shared/relevance/evaluation'
import { headOf, type EvaluationHead, type RankingPage } from '../../../shared/relevance/evaluation-head'
import { EvaluationSummarySchema, type EvaluationSummary } from '../../../shared/relevance/evaluation-summary'
import { parseMetrics } from '../../../shared/relevance/metrics'
import type { Judgment, MetricSettings, Scale } from '../../../shared/relevance/query-set'
import { runFileChunk, runTag } from '../../evaluation/run-file'
import { ExplorerError } from '../../../shared/ipc/errors'
import { checkedForKeeping } from '../kept-records'
import { keptSummaries, readJsonRow } from './json-rows'
import { scalar } from './schema'
import type { Rater } from '../../../shared/relevance/raters'

/** An evaluation as the store is first told of it: all but its rankings, which follow in parts (`addRankings`). */
export type EvaluationStart = Omit<Evaluation, 'rankings'>

/** What a list shows of an evaluation: its summary, without the rankings and per-query figures. */
export function summaryOf(evaluation: Evaluation | EvaluationStart | EvaluationHead): EvaluationSummary {
  const { scored, rankings: _rankings, rankingCount: _count, previews: _previews, ...rest } = evaluation as Partial<Evaluation & EvaluationHead> & EvaluationStart
  const { queries: _queries, ...figures } = scored
  return { ...rest, scored: figures }
}

/** Rankings read at a time while a whole evaluation is walked (scored, written as a run): ~3 MB at depth 1,000. */
const WALK_PAGE = 100

/** Lets the thread answer other requests (a rating's journal row) between pages of a long walk. */
const yieldToQueue = () => new Promise<void>((resolve) => setImmediate(resolve))

const HeadStartSchema = EvaluationSchema.omit({ rankings: true })

interface Pending {
  start: EvaluationStart
  count: number
  previews: Record<string, string[]>
}

/**
 * Kept evaluations in the data folder's database: a row each (its summary,
 * for lists, and its head: all but the rankings) and its rankings a query a
 * row, so an evaluation of 3,000 queries at depth 1,000 (~97 MB) is opened,
 * paged, scored and written as a run without ever being read whole. Each
 * part is checked with the schema it is read back with before it is written.
 * The newest `keep` are kept. Runs on the store's thread only.
 */
export class EvaluationsTable {
  private readonly pending = new Map<string, Pending>()
  private readonly insertRanking: Database.Statement
  private readonly page: Database.Statement
  private readonly byQuery: Database.Statement
  private readonly headOf: Database.Statement
  private readonly countOf: Database.Statement

  constructor(
    private readonly db: Database.Database,
    private readonly keep: number,
  ) {
    this.insertRanking = db.prepare('INSERT INTO evaluation_rankings (evaluation_id, ordinal, query_id, ranking) VALUES (?, ?, ?, ?)')
    this.page = db.prepare('SELECT ranking FROM evaluation_rankings WHERE evaluation_id = ? AND ordinal >= ? ORDER BY ordinal LIMIT ?').pluck()
    this.byQuery = db.prepare('SELECT ranking FROM evaluation_rankings WHERE evaluation_id = ? AND query_id = ? ORDER BY ordinal LIMIT 1')
    this.headOf = db.prepare('SELECT head FROM evaluations WHERE id = ?')
    this.countOf = db.prepare('SELECT rankings FROM evaluations WHERE id = ?')
    // Rankings of an evaluation the app stopped in the middle of keeping: never listed, so never read; they go.
    db.exec('DELETE FROM evaluation_rankings WHERE evaluation_id NOT IN (SELECT id FROM evaluations)')
  }

  /** Starts keeping an evaluation: its head is checked now; its rankings follow (addRankings), then commit. */
  begin(start: EvaluationStart): void {
    checkedForKeeping(HeadStartSchema, start, 'evaluation')
    this.db.prepare('DELETE FROM evaluation_rankings WHERE evaluation_id = ?').run(start.id)
    this.pending.set(start.id, { start, count: 0, previews: {} })
  }

  /** The next rankings of an evaluation begun, in its order, each checked before it is written. */
  addRankings(id: string, rankings: readonly QueryRanking[]): void {
    const pending = this.pendingOf(id)
    const rows = rankings.map((ranking, index) => checkedForKeeping(QueryRankingSchema, ranking, 'evaluation', `rankings.${pending.count + index}`))
    this.db.transaction(() => {
      rankings.forEach((ranking, index) => this.insertRanking.run(id, pending.count + index, ranking.id, rows[index]))
    })()
    for (const ranking of rankings) if (ranking.error === null) pending.previews[ranking.id] = ranking.items.slice(0, pending.start.judgeDepth)
    pending.count += rankings.length
  }

  /** The evaluation begun is kept: listed from now on; the oldest past `keep` go. Its summary. */
  commit(id: string): EvaluationSummary {
    const pending = this.pendingOf(id)
    this.pending.delete(id)
    const head: EvaluationHead = { ...pending.start, rankingCount: pending.count, previews: pending.previews }
    return this.insertHead(head)
  }

  /** Drops an evaluation begun and not committed (its keeping failed half way). */
  abandon(id: string): void {
    this.pending.delete(id)
    this.db.prepare('DELETE FROM evaluation_rankings WHERE evaluation_id = ?').run(id)
  }

  /** Keeps a whole evaluation at once (the old files imported): checked, in one transaction. */
  addWhole(evaluation: Evaluation): EvaluationSummary {
    checkedForKeeping(EvaluationSchema, evaluation, 'evaluation')
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM evaluation_rankings WHERE evaluation_id = ?').run(evaluation.id)
      evaluation.rankings.forEach((ranking, index) => this.insertRanking.run(evaluation.id, index, ranking.id, JSON.stringify(ranking)))
      return this.insertHeadRows(headOf(evaluation))
    })()
  }

  /** Summaries, newest first, of one set when named; a row that no longer reads is left out. */
  list(set?: string): EvaluationSummary[] {
    return keptSummaries(this.db, 'evaluations', set, EvaluationSummarySchema)
  }

  /** The evaluation's summary (what it ran on, its means), small whatever its size; null when none is kept by that id. */
  summary(id: string): EvaluationSummary | null {
    const text = scalar(this.db.prepare('SELECT summary FROM evaluations WHERE id = ?'), id) as string | undefined
    return text === undefined ? null : readJsonRow(text, EvaluationSummarySchema)
  }

  /** The evaluation without its rankings; null when none is kept by that id. */
  head(id: string): EvaluationHead | null {
    const text = scalar(this.headOf, id) as string | undefined
    if (text === undefined) return null
    // Checked with its schema before it was kept; read back, only its shape is looked at (the whole check costs ~150 ms at 3,000 queries).
    const head = headShaped(text)
    if (!head) {
      throw new ExplorerError('not_found', `The kept evaluation "${id}" is listed, but it does not read as one (damaged, or written by another version); it is left as it is in the data folder's database.`)
    }
    return head
  }

  /** Rankings from `offset`, at most `limit`, in the evaluation's order; null when none is kept by that id. */
  rankings(id: string, offset: number, limit: number): RankingPage | null {
    const total = scalar(this.countOf, id) as number | undefined
    if (total === undefined) return null
    return { total: Number(total), offset, rankings: (this.page.all(id, offset, limit) as string[]).map((text) => readRanking(id, text)) }
  }

  /** One query's ranking (its first, should a set hold a query twice); null when there is none. */
  ranking(id: string, queryId: string): QueryRanking | null {
    const text = scalar(this.byQuery, id, queryId) as string | undefined
    return text === undefined ? null : readRanking(id, text)
  }

  remove(id: string): boolean {
    return this.db.transaction(() => this.removeRows(id))()
  }

  private removeRows(id: string): boolean {
    this.db.prepare('DELETE FROM evaluation_rankings WHERE evaluation_id = ?').run(id)
    return this.db.prepare('DELETE FROM evaluations WHERE id = ?').run(id).changes > 0
  }

  /** Every ranking of a kept evaluation in order, a page at a time, letting other requests in between pages. */
  async walk(id: string, each: (ranking: QueryRanking) => void): Promise<boolean> {
    const total = scalar(this.countOf, id) as number | undefined
    if (total === undefined) return false
    for (let offset = 0; offset < Number(total); offset += WALK_PAGE) {
      const texts = this.page.all(id, offset, WALK_PAGE) as string[]
      for (const text of texts) each(readRanking(id, text))
      if (texts.length < WALK_PAGE) break
      await yieldToQueue()
    }
    return true
  }

  /**
   * Writes the evaluation as a TREC run file at `path`, a query at a time,
   * through run-file.ts (the one writer of the format): the same bytes as
   * evaluationRunFile over the whole evaluation. Written beside and renamed
   * into place, so a failure (white space in an item) leaves nothing half made.
   */
  async writeRunFile(id: string, path: string): Promise<{ queries: number } | null> {
    const summary = this.summary(id)
    if (!summary) return null
    const tag = runTag(summary)
    const part = `${path}.${process.pid}-${Date.now()}.part`
    const fd = openSync(part, 'w', 0o600)
    let queries = 0
    try {
      await this.walk(id, (ranking) => {
        if (ranking.error !== null) return
        queries++
        writeSync(fd, runFileChunk(ranking, tag))
      })
      closeSync(fd)
      renameSync(part, path)
    } catch (error) {
      try {
        closeSync(fd)
      } catch {
        // Closed already: the rename failed.
      }
      rmSync(part, { force: true })
      throw error
    }
    return { queries }
  }

  /** The figures of the kept rankings with the judgments given (the set's as they are now), its listed raters telling who adjudicates. */
  async score(id: string, judgments: readonly Judgment[], scale: Scale | undefined, settings: MetricSettings, raters?: readonly Rater[]): Promise<Scored | null> {
    const head = this.head(id)
    if (!head) return null
    const metrics = parseMetrics(head.scored.metrics.join(','))
    if (!metrics.ok) return head.scored
    const scorer = rankingScorer({ judgments: [...judgments], ...(scale ? { scale } : {}), ...(raters ? { raters: [...raters] } : {}) }, metrics.metrics, settings, head.judgeDepth)
    await this.walk(id, scorer.add)
    return scorer.result()
  }

  /** Probability against grade over the kept rankings (probability-bands.ts), with the grades given. */
  async probability(
    id: string,
    grades: ReadonlyMap<string, ReadonlyMap<string, number>>,
    threshold: number,
    share: number,
  ): Promise<{ hasProbabilities: boolean; bands: ProbabilityBand[]; cutoff: CutoffResult | null } | null> {
    const kept: QueryRanking[] = []
    // Only what the figures read is held: the items and their probabilities, not the labels.
    const found = await this.walk(id, (ranking) => {
      if (ranking.error === null && ranking.probabilities && ranking.probabilities.length > 0) {
        kept.push({ id: ranking.id, text: '', items: ranking.items, labels: [], probabilities: ranking.probabilities, error: null, durationMs: 0 })
      }
    })
    if (!found) return null
    if (kept.length === 0) return { hasProbabilities: false, bands: [], cutoff: null }
    return { hasProbabilities: true, bands: probabilityBands(kept, grades), cutoff: cutoffKeeping(kept, grades, threshold, share) }
  }

  private insertHead(head: EvaluationHead): EvaluationSummary {
    return this.db.transaction(() => this.insertHeadRows(head))()
  }

  private insertHeadRows(head: EvaluationHead): EvaluationSummary {
    const summary = summaryOf(head)
    {
      this.db
        .prepare('INSERT INTO evaluations (id, set_name, summary, head, rankings) VALUES (?, ?, ?, ?, ?)')
        .run(head.id, head.set, JSON.stringify(summary), JSON.stringify(head), head.rankingCount)
      // The newest `keep` stay; what is older goes with its rankings.
      const old = this.db.prepare('SELECT id FROM evaluations ORDER BY seq DESC LIMIT -1 OFFSET ?').pluck().all(this.keep) as string[]
      for (const gone of old) this.removeRows(gone)
    }
    return summary
  }

  private pendingOf(id: string): Pending {
    const pending = this.pending.get(id)
    if (!pending) throw new Error(`no evaluation "${id}" is being kept`)
    return pending
  }
}

/** A head row as written, or null when it no longer reads as one (cut short, another program's write). */
function headShaped(text: string): EvaluationHead | null {
  try {
    const value = JSON.parse(text) as Partial<EvaluationHead> | null
    const shaped =
      typeof value?.id === 'string' &&
      typeof value.set === 'string' &&
      typeof value.rankingCount === 'number' &&
      typeof value.previews === 'object' &&
      value.previews !== null &&
      Array.isArray(value.scored?.queries) &&
      Array.isArray(value.scored?.metrics)
    return shaped ? (value as EvaluationHead) : null
  } catch {
    return null
  }
}

/** A ranking row as written (checked before it was kept): parsed, not checked again on each read of a page. */
function readRanking(id: string, text: string): QueryRanking {
  try {
    return JSON.parse(text) as QueryRanking
  } catch {
    throw new Error(`a ranking of the kept evaluation "${id}" does not read (the database is damaged)`)
  }
}
