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
  /** `report`: told when a damaged index was made again from the records on disk. */
  constructor(dataDir: string, report?: (note: string) => void) {
    super(dataDir, { folder: 'evaluations', noun: 'evaluation', record: EvaluationSchema, summary: EvaluationSummarySchema, summaryOf, keep: KEPT_EVALUATIONS, report })
  }
}
