import { parentPort } from 'node:worker_threads'
import { experimentStats } from '../../shared/experiments/experiment'
import type { StatsReply, StatsRequest } from './stats-protocol'

/**
 * A worker thread that computes an experiment's statistics
 * (electron.vite.config.ts: `experiment-stats`): 10,000 sign-flip
 * permutations and 10,000 bootstrap resamples per metric and target take
 * too long for the event loop that answers the window. One request, one answer.
 */

const port = parentPort
if (!port) throw new Error('stats-worker runs as a worker thread')
port.once('message', (request: StatsRequest) => {
  let reply: StatsReply
  try {
    const grades = new Map(request.grades.map(([query, items]) => [query, new Map(items)]))
    reply = { ok: true, stats: experimentStats(request.baseline, request.others, grades, request.judgeDepth, request.options) }
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
