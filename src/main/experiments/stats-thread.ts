import { ExplorerError } from '../../shared/ipc/errors'
import type { ExperimentStats } from '../../shared/experiments/experiment'
import { startWorkerThread } from '../jobs/worker-entry'
import type { StatsReply, StatsRequest } from './stats-protocol'

/** The built entry (electron.vite.config.ts: `experiment-stats`). */
const BUILT_ENTRY = 'experiment-stats.js'

/**
 * Computes an experiment's statistics on a thread of its own, started for
 * this one request and stopped after it (or at once when `signal` aborts):
 * the window stays answered while the permutations run.
 */
export function statsInThread(request: StatsRequest, signal?: AbortSignal): Promise<ExperimentStats> {
  const worker = startWorkerThread({ caller: __filename, source: 'stats-worker.ts', built: BUILT_ENTRY, what: "The experiment's statistics", resourceLimits: { maxOldGenerationSizeMb: 1024 } })
  return new Promise<ExperimentStats>((resolve, reject) => {
    const stop = () => {
      void worker.terminate()
      reject(new ExplorerError('cancelled', 'The experiment was cancelled.'))
    }
    if (signal?.aborted) return stop()
    signal?.addEventListener('abort', stop, { once: true })
    const done = () => signal?.removeEventListener('abort', stop)
    worker.once('message', (reply: StatsReply) => {
      done()
      void worker.terminate()
      if (reply.ok) resolve(reply.stats)
      else reject(new ExplorerError('internal', `The experiment's statistics failed: ${reply.message}`))
    })
    worker.once('error', (error) => {
      done()
      reject(new ExplorerError('internal', `The experiment's statistics failed: ${error.message}`))
    })
    worker.once('exit', (code) => {
      done()
      // After an answer the exit is ours; without one the thread died (out of memory, say).
      reject(new ExplorerError('internal', `The experiment's statistics stopped before they were done (exit code ${code}).`))
    })
    worker.postMessage(request)
  })
}
