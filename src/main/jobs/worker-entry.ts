import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import { ExplorerError } from '../../shared/ipc/errors'

/**
 * Starts a worker thread on one of main's thread entries, from sources
 * (vitest, tsx: the TypeScript file beside the caller, with tsx registered
 * first) or built (a sibling bundle in out/main/, named in
 * electron.vite.config.ts). Work that can take long (an export's pages, an
 * experiment's statistics) runs there, never on the event loop that answers the window.
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
  const settings = resourceLimits ? { resourceLimits } : {}
  if (caller.endsWith('.ts')) {
    const register = createRequire(caller).resolve('tsx/cjs/api')
    const entry = resolve(dirname(caller), source)
    return new Worker(`require(${JSON.stringify(register)}).register(); require(${JSON.stringify(entry)})`, { ...settings, eval: true })
  }
  // Built, the caller may sit in out/main/ or in out/main/chunks/.
  const here = dirname(caller)
  const entry = [join(here, built), join(here, '..', built)].find((path) => existsSync(path))
  if (!entry) throw new ExplorerError('internal', `${what} could not start: ${built} is missing next to ${here}; build the app (npm run build).`)
  return new Worker(entry, settings)
}
