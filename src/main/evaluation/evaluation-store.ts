import type { Evaluation } from '../../shared/relevance/evaluation'
import type { EvaluationSummary } from '../../shared/relevance/evaluation-summary'
import { storeRequests, type DataStore, type StoreRequests } from '../storage/data-store/data-store'

export { KEPT_EVALUATIONS } from '../storage/data-store/store-protocol'
export { summaryOf } from '../storage/data-store/evaluations-table'

/**
 * Rankings sent to the store's thread in one message while an evaluation is
 * kept: at depth 1,000 about 0.8 MB, so no one message (its copy on main)
 * grows with the number of queries, and other requests run between them.
 */
const KEEP_PART = 25

/** What is read of kept evaluations, each in the store's thread: names here, the rest the table's (evaluations-table.ts). */
const READS = {
  /** Summaries, newest first, of one set when named. */
  list: 'evaluations.list',
  /** The evaluation's summary: what it ran on, its means (no per-query figures); null when none is kept by that id. */
  summary: 'evaluations.summary',
  /** The evaluation without its rankings; null when none is kept by that id. */
  head: 'evaluations.head',
  /** `limit` rankings from `offset`, in the order they ran. */
  page: 'evaluations.rankings',
  ranking: 'evaluations.ranking',
  remove: 'evaluations.remove',
  /** Writes the kept evaluation as a TREC run file at a path; null when none is kept by that id. */
  writeRunFile: 'evaluations.writeRunFile',
  /** The kept rankings scored with these judgments; null when none is kept by that id. */
  score: 'evaluations.score',
  /** Probability against grade over the kept rankings, with the grades given (by query, then item). */
  probability: 'evaluations.probability',
} as const

// The reads are the class's own methods (made in the constructor): one declaration, here.
export interface EvaluationStore extends StoreRequests<typeof READS> {}

/**
 * Kept evaluations, in the data folder's database (evaluations-table.ts):
 * kept in parts, read as a head and pages of rankings, scored and written as
 * a run file in the store's thread, so main never holds or copies a large one.
 */
export class EvaluationStore {
  constructor(private readonly data: DataStore) {
    Object.assign(this, storeRequests(data, READS))
  }

  /** Keeps the evaluation (checked in the store's thread with the schema it is read with); its summary. */
  async add(evaluation: Evaluation): Promise<EvaluationSummary> {
    const { rankings, ...start } = evaluation
    await this.data.call('evaluations.begin', start)
    try {
      for (let from = 0; from < rankings.length; from += KEEP_PART) await this.data.call('evaluations.addRankings', evaluation.id, rankings.slice(from, from + KEEP_PART))
      return await this.data.call('evaluations.commit', evaluation.id)
    } catch (error) {
      await this.data.call('evaluations.abandon', evaluation.id).catch(() => undefined)
      throw error
    }
  }
}
