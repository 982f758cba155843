import type { ResourceLimits, TransferListItem, Worker } from 'node:worker_threads'
import { MissingBuiltEntry } from '../../node/built-entry'
import { startWorkerThread as startThread } from '../../node/worker-thread'
import { ExplorerError } from '../../shared/ipc/errors'
import type { ThreadReply } from './thread-answer'

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

/**
 * Work done on a thread started for this one request and stopped after its
 * answer (or at once when `signal` aborts): the thread's entry answers with
 * answerOnce (thread-answer.ts). A failure is said as `${what} failed: …`,
 * the work's words or that the thread stopped without an answer. `parts`,
 * when given, sends parts of the request ahead of it, one message each (a
 * large request as one message is one long copy on main's event loop);
 * should it fail, the thread is stopped and its error is the answer.
 */
export function answerInThread<Result>(
  entry: Parameters<typeof startWorkerThread>[0],
  request: unknown,
  options: {
    transfer?: readonly TransferListItem[]
    signal?: AbortSignal | undefined
    cancelled?: string
    parts?: (send: (part: unknown) => void) => Promise<void>
  } = {},
): Promise<Result> {
  const { what } = entry
  const { signal } = options
  if (signal?.aborted) return Promise.reject(new ExplorerError('cancelled', options.cancelled ?? `${what} was cancelled.`))
  const worker = startWorkerThread(entry)
  return new Promise<Result>((resolve, reject) => {
    const stop = () => {
      void worker.terminate()
      reject(new ExplorerError('cancelled', options.cancelled ?? `${what} was cancelled.`))
    }
    signal?.addEventListener('abort', stop, { once: true })
    const done = () => signal?.removeEventListener('abort', stop)
    worker.once('message', (reply: ThreadReply<Result>) => {
      done()
      void worker.terminate()
      if (reply.ok) resolve(reply.value)
      else reject(new ExplorerError('internal', `${what} failed: ${reply.message}`))
    })
    worker.once('error', (error) => {
      done()
      reject(new ExplorerError('internal', `${what} failed: ${error.message}`))
    })
    worker.once('exit', (code) => {
      done()
      // After an answer the exit is ours (a settled promise ignores this); without one the thread died (out of memory, say).
      reject(new ExplorerError('internal', `${what} failed: its thread stopped before answering (exit code ${code}).`))
    })
    const send = async () => {
      if (options.parts) await options.parts((part) => worker.postMessage({ part }))
      worker.postMessage(request, options.transfer ? [...options.transfer] : undefined)
    }
    send().catch((error: unknown) => {
      done()
      void worker.terminate()
      reject(error)
    })
  })
}
