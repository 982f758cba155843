import type { CutoffResult, ProbabilityBand } from '../../shared/experiments/probability-bands'
import type { Evaluation, QueryRanking, Scored } from '../../shared/relevance/evaluation'
import type { EvaluationHead, RankingPage } from '../../shared/relevance/evaluation-head'
import type { EvaluationSummary } from '../../shared/relevance/evaluation-summary'
import type { Judgment, MetricSettings, Scale } from '../../shared/relevance/query-set'
import type { DataStore } from '../storage/data-store/data-store'

export { KEPT_EVALUATIONS } from '../storage/data-store/store-protocol'
export { summaryOf } from '../storage/data-store/evaluations-table'

/**
 * Rankings sent to the store's thread in one message while an evaluation is
 * kept: at depth 1,000 about 0.8 MB, so no one message (its copy on main)
 * grows with the number of queries, and other requests run between them.
 */
const KEEP_PART = 25

/**
 * Kept evaluations, in the data folder's database (evaluations-table.ts):
 * kept in parts, read as a head and pages of rankings, scored and written as
 * a run file in the store's thread, so main never holds or copies a large one.
 */
export class EvaluationStore {
  constructor(private readonly data: DataStore) {}

  /** Keeps the evaluation (checked in the store's thread with the schema it is read with); its summary. */
  async add(evaluation: Evaluation): Promise<EvaluationSummary> {
    const { rankings, ...start } = evaluation
    await this.data.evaluationBegin(start)
    try {
      for (let from = 0; from < rankings.length; from += KEEP_PART) await this.data.evaluationRankings(evaluation.id, rankings.slice(from, from + KEEP_PART))
      return await this.data.evaluationCommit(evaluation.id)
    } catch (error) {
      await this.data.evaluationAbandon(evaluation.id).catch(() => undefined)
      throw error
    }
  }

  /** Summaries, newest first, of one set when named. */
  list(set?: string): Promise<EvaluationSummary[]> {
    return this.data.evaluationList(set)
  }

  /** The evaluation's summary: what it ran on, its means (no per-query figures); null when none is kept by that id. */
  summary(id: string): Promise<EvaluationSummary | null> {
    return this.data.evaluationSummary(id)
  }

  /** The evaluation without its rankings; null when none is kept by that id. */
  head(id: string): Promise<EvaluationHead | null> {
    return this.data.evaluationHead(id)
  }

  page(id: string, offset: number, limit: number): Promise<RankingPage | null> {
    return this.data.evaluationPage(id, offset, limit)
  }

  ranking(id: string, query: string): Promise<QueryRanking | null> {
    return this.data.evaluationRanking(id, query)
  }

  remove(id: string): Promise<boolean> {
    return this.data.evaluationRemove(id)
  }

  writeRunFile(id: string, path: string): Promise<{ queries: number } | null> {
    return this.data.evaluationRunFile(id, path)
  }

  score(id: string, judgments: Judgment[], scale: Scale | undefined, settings: MetricSettings): Promise<Scored | null> {
    return this.data.evaluationScore(id, judgments, scale, settings)
  }

  probability(
    id: string,
    grades: [string, [string, number][]][],
    threshold: number,
    share: number,
  ): Promise<{ hasProbabilities: boolean; bands: ProbabilityBand[]; cutoff: CutoffResult | null } | null> {
    return this.data.evaluationProbability(id, grades, threshold, share)
  }
}
