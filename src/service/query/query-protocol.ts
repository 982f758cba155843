import type { Reply } from '../http/reply'
import type { CheckedQuery } from './query-check'

/**
 * The messages between the service's HTTP thread and its query thread
 * (query-thread.ts, query-worker.ts). Requests carry no token: the HTTP
 * thread checked it before a request is sent here.
 */

/** Given to the thread at its start. */
export interface QueryWorkerData {
  budgetMs: number
}

/** HTTP thread → query thread: one checked request to answer. */
export interface AnswerMessage {
  type: 'answer'
  id: number
  query: CheckedQuery
}

/**
 * HTTP thread → query thread: the population of the dataset's most populous
 * place with this folded name (the demo judge's `largest`, city-rule.ts),
 * answered as a reply whose JSON body is `{ "population": N }` (0: none).
 */
export interface LargestMessage {
  type: 'largest'
  id: number
  name: string
}

export type ThreadRequest = AnswerMessage | LargestMessage

/** Query thread → HTTP thread. */
export type WorkerMessage =
  /** The dataset is loaded and indexed: requests can be sent. */
  | { type: 'ready'; startupMs: number }
  /** The dataset could not be loaded; the thread ends. */
  | { type: 'failed'; message: string }
  /** A line for the service's log (a snapshot that could not be used, say). */
  | { type: 'log'; message: string }
  /** The answer to request `id`, refusals (4xx, 503) included. */
  | { type: 'reply'; id: number; reply: Reply }
  /** A fault while answering request `id`: its stack, for the log; the client gets a 500. */
  | { type: 'fault'; id: number; message: string }
