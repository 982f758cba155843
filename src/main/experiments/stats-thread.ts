import type { ExperimentStats } from '../../shared/experiments/experiment'
import { answerInThread } from '../jobs/worker-entry'
import type { StatsRequest } from './stats-protocol'

/** The built entry (electron.vite.config.ts: `experiment-stats`). */
const BUILT_ENTRY = 'experiment-stats.js'

/**
 * Computes an experiment's statistics on a thread of its own, started for
 * this one request and stopped after it (or at once when `signal` aborts):
 * the window stays answered while the permutations run.
 */
export function statsInThread(request: StatsRequest, signal?: AbortSignal): Promise<ExperimentStats> {
  return answerInThread<ExperimentStats>(
    { caller: __filename, source: 'stats-worker.ts', built: BUILT_ENTRY, what: "The experiment's statistics", resourceLimits: { maxOldGenerationSizeMb: 1024 } },
    request,
    { signal, cancelled: 'The experiment was cancelled.' },
  )
}
