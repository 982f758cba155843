import type { ResourceLimits, Worker } from 'node:worker_threads'
import { MissingBuiltEntry } from '../../node/built-entry'
import { startWorkerThread as startThread } from '../../node/worker-thread'
import { ExplorerError } from '../../shared/ipc/errors'

/**
 * Starts a worker thread on one of main's thread entries (src/node/worker-thread.ts
 * finds it, from sources or built in out/main/ as electron.vite.config.ts names
 * it). Work that can take long (an export's pages, an experiment's statistics)
 * runs there, never on the event loop that answers the window; a missing build
 * is said as the window says an error.
 */
export function startWorkerThread(options: {
  /** The caller's own file (`__filename`): where the source and the built entry are looked for. */
  caller: string
  /** The entry's source file name, beside the caller: `writer-worker.ts`. */
  source: string
  /** The built entry: `export-writer.js`. */
  built: string
  /** What the thread is for, to say what could not start: "The export". */
  what: string
  resourceLimits?: ResourceLimits
}): Worker {
  const { caller, source, built, what, resourceLimits } = options
  try {
    return startThread({ caller, source, built: [built], resourceLimits })
  } catch (error) {
    if (error instanceof MissingBuiltEntry) throw new ExplorerError('internal', `${what} could not start: ${error.message}.`)
    throw error
  }
}
