import type { ExperimentStats } from '../../shared/experiments/experiment'
import type { QueryRanking } from '../../shared/relevance/evaluation'
import type { JudgeNextScoring } from '../../shared/relevance/judge-next'
import type { QuerySet } from '../../shared/relevance/query-set'
import type { JudgmentColumns } from './agreement-protocol'

/**
 * What main sends the What to judge next thread (it answers judge-next.ts's
 * EvaluationJudgeNext or ExperimentJudgeNext, answerOnce). The set's
 * judgments cross as columns (agreement-protocol.ts: moved, not cloned
 * object by object). The rankings come ahead of it, a page a message
 * (JudgeNextPart), cut to what the figures read (judge-next-thread.ts).
 */
export interface JudgeNextRequest {
  kind: 'evaluation' | 'experiment'
  /** How many sides the parts are of: 1 for an evaluation (a side may have sent no page: it has no ranking). */
  sides: number
  set: { judgments: JudgmentColumns; scale: QuerySet['scale']; raters: QuerySet['raters'] }
  scoring: JudgeNextScoring
  limit: number
  /** An experiment's: its alpha and its own statistics (their p-values are the current ones when they still match). */
  alpha?: number
  stats?: ExperimentStats
}

/** A page of a side's rankings (0: the evaluation's, or the baseline's; then the other sides'), sent ahead of the request. */
export interface JudgeNextPart {
  side: number
  rankings: QueryRanking[]
}
