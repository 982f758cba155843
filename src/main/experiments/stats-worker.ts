import { experimentStats } from '../../shared/experiments/experiment'
import { answerOnce } from '../jobs/thread-answer'
import type { StatsRequest } from './stats-protocol'

/**
 * A worker thread that computes an experiment's statistics
 * (electron.vite.config.ts: `experiment-stats`): 10,000 sign-flip
 * permutations and 10,000 bootstrap resamples per metric and target take
 * too long for the event loop that answers the window. One request, one answer.
 */
answerOnce('stats-worker', (request: StatsRequest) => {
  const grades = new Map(request.grades.map(([query, items]) => [query, new Map(items)]))
  return experimentStats(request.baseline, request.others, grades, request.judgeDepth, request.options)
})
