import type { ExperimentOptions, ExperimentSide } from '../../shared/experiments/experiment'

/** What main sends the statistics thread (it answers the statistics, answerOnce): plain data, structured-cloned across. */
export interface StatsRequest {
  baseline: ExperimentSide
  others: ExperimentSide[]
  /** Every query's judgments, as [query, [[item, grade], …]] pairs (Maps cross too, but this reads plainly in a test). */
  grades: [string, [string, number][]][]
  judgeDepth: number
  options: ExperimentOptions
}
