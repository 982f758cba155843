import { judgeNextEvaluation, judgeNextExperiment } from '../../shared/relevance/judge-next'
import { answerOnce } from '../jobs/thread-answer'
import { judgmentsOfColumns } from './agreement-protocol'
import type { QueryRanking } from '../../shared/relevance/evaluation'
import type { JudgeNextPart, JudgeNextRequest } from './judge-next-protocol'

/**
 * A worker thread that works out What to judge next (electron.vite.config.ts:
 * `judge-next`): at 1,000 queries on two sides 0.5–2 s of scoring and
 * randomization tests, kept off the event loop that answers the window.
 * One request, one answer.
 */
answerOnce('judge-next-worker', (request: JudgeNextRequest, parts: JudgeNextPart[]) => {
  const sides: QueryRanking[][] = Array.from({ length: request.sides }, () => [])
  for (const { side, rankings } of parts) for (const ranking of rankings) sides[side]!.push(ranking)
  const set = { ...request.set, judgments: judgmentsOfColumns(request.set.judgments) }
  if (request.kind === 'evaluation') return judgeNextEvaluation(sides[0] ?? [], set, request.scoring, { limit: request.limit })
  const [baseline, ...others] = sides
  return judgeNextExperiment({ baseline: baseline!, others }, set, request.scoring, { limit: request.limit, alpha: request.alpha, stats: request.stats })
})
