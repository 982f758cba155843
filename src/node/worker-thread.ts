import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import { builtEntry } from './built-entry'

/**
 * Starts a worker thread on a thread entry, for main's threads (an export's
 * writer, an experiment's statistics, the data store; through
 * src/main/jobs/worker-entry.ts) and the service's query thread alike: here,
 * not in either, because the service may not import from main. From sources
 * (vitest, tsx) the caller is a .ts file and the entry is the TypeScript file
 * beside it, loaded with tsx registered first; built, it is a sibling bundle
 * (built-entry.ts), or MissingBuiltEntry says which is missing.
 */
export interface WorkerThreadEntry {
  /** The caller's own file (`__filename`): where the source and the built entry are looked for. */
  caller: string
  /** The entry's source file name, beside the caller: `writer-worker.ts`. */
  source: string
  /** The built entry's file names, the first the one a missing build is named by: `export-writer.js`. */
  built: readonly string[]
  workerData?: unknown
  resourceLimits?: ResourceLimits | undefined
}

export function startWorkerThread(entry: WorkerThreadEntry): Worker {
  const { caller, source, built, workerData, resourceLimits } = entry
  const settings = { ...(resourceLimits ? { resourceLimits } : {}), ...(workerData === undefined ? {} : { workerData }) }
  if (caller.endsWith('.ts')) {
    const register = createRequire(caller).resolve('tsx/cjs/api')
    const path = resolve(dirname(caller), source)
    return new Worker(`require(${JSON.stringify(register)}).register(); require(${JSON.stringify(path)})`, { ...settings, eval: true })
  }
  return new Worker(builtEntry(caller, built), settings)
}
