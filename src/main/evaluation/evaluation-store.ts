import { EvaluationSchema, type Evaluation } from '../../shared/relevance/evaluation'
import { EvaluationSummarySchema, type EvaluationSummary } from '../../shared/relevance/evaluation-summary'
import { KeptRecords } from '../storage/kept-records'

/** Evaluations kept, the newest: each holds every query's ranking, so they are not kept without end. */
export const KEPT_EVALUATIONS = 100

export function summaryOf(evaluation: Evaluation): EvaluationSummary {
  const { rankings: _rankings, scored, ...rest } = evaluation
  const { queries: _queries, ...figures } = scored
  return { ...rest, scored: figures }
}

/** Kept evaluations in `<dataDir>/evaluations/`: one file each (its rankings too) and an index of their summaries. */
export class EvaluationStore extends KeptRecords<Evaluation, EvaluationSummary> {
  constructor(dataDir: string) {
    super(dataDir, { folder: 'evaluations', record: EvaluationSchema, summary: EvaluationSummarySchema, summaryOf, keep: KEPT_EVALUATIONS })
  }
}
