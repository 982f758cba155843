import { parentPort, workerData } from 'node:worker_threads'
import { openDemoData } from '../dataset/demo-data'
import { errorReply, jsonReply, type Reply } from '../http/reply'
import { ServiceError } from '../refusal'
import { hostedWorkspaces } from '../workspace/workspaces'
import { createChainCache } from './chain-cache'
import { largestByName } from '../judge/city-rule'
import type { QueryWorkerData, ThreadRequest, WorkerMessage } from './query-protocol'
import { runQuery, type QueryEngine } from './query-work'

/**
 * The service's query thread (electron.vite.config.ts and
 * scripts/build-cli.cjs: `service-query-worker`): it holds the dataset, its
 * index and the chain cache, and answers one request at a time, so a query's
 * seconds of work never hold the thread that accepts and reads HTTP.
 */

const port = parentPort
if (!port) throw new Error('query-worker runs as a worker thread of the embedded service')
const post = (message: WorkerMessage) => port.postMessage(message)

let engine: QueryEngine
try {
  const started = performance.now()
  const { dataset, text } = openDemoData({ log: (message) => post({ type: 'log', message }) })
  const { budgetMs } = workerData as QueryWorkerData
  engine = { workspaces: hostedWorkspaces(), dataset, text, chainCache: createChainCache(), budgetMs }
  post({ type: 'ready', startupMs: performance.now() - started })
} catch (error) {
  post({ type: 'failed', message: (error as Error)?.message ?? String(error) })
  process.exit(1)
}

/** The demo judge's table of names, built at its first question: a service nobody judges with never pays for it. */
let largest: Map<string, number> | null = null
function largestReply(name: string): Reply {
  largest ??= largestByName(engine.dataset.cities.map((city) => ({ name: String(city.attributes.name ?? ''), population: Number(city.attributes.population) || 0 })))
  return jsonReply(200, { population: largest.get(name) ?? 0 })
}

// One request after the other, an xlsx page's awaits included: the work budget counts the process's CPU time as this request's own.
let previous: Promise<void> = Promise.resolve()
port.on('message', (message: ThreadRequest) => {
  const { id } = message
  previous = previous
    .then(() => (message.type === 'largest' ? largestReply(message.name) : runQuery(engine, message.query)))
    .then(
      (reply) => post({ type: 'reply', id, reply }),
      (error: unknown) => {
        if (error instanceof ServiceError) post({ type: 'reply', id, reply: errorReply(error) })
        else post({ type: 'fault', id, message: (error as Error)?.stack ?? String(error) })
      },
    )
})
