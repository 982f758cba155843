import { verdictHold } from '../../shared/experiments/verdict-hold'
import type { QueryRanking } from '../../shared/relevance/evaluation'
import { judgeCalibration } from '../../shared/relevance/judge-calibration'
import { judgmentsOfColumns } from '../evaluation/agreement-protocol'
import type { JudgeNextPart } from '../evaluation/judge-next-protocol'
import { answerOnce } from '../jobs/thread-answer'
import type { CalibrationRequest } from './calibration'

/**
 * A worker thread that works out a judge's calibration, or whether an
 * experiment's verdict holds (electron.vite.config.ts: `judge-calibration`),
 * kept off the event loop that answers the window. One request, one answer.
 */
answerOnce('calibration-worker', (request: CalibrationRequest, parts: JudgeNextPart[]) => {
  const judgments = judgmentsOfColumns(request.set.judgments)
  if (request.kind === 'calibration') return judgeCalibration({ ...request.set, judgments }, request.judge)
  const sides: QueryRanking[][] = Array.from({ length: request.sides }, () => [])
  for (const { side, rankings } of parts) for (const ranking of rankings) sides[side]!.push(ranking)
  return verdictHold({ judge: request.judge, set: { ...request.set, judgments }, sides, scoring: request.scoring, options: request.options })
})
