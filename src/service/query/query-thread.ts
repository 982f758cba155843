import type { Worker } from 'node:worker_threads'
import { startWorkerThread } from '../../node/worker-thread'
import { errorReply, jsonReply, type Reply } from '../http/reply'
import type { QueryWork } from '../http/query-route'
import { ServiceError } from '../refusal'
import type { CheckedQuery } from './query-check'
import type { QueryWorkerData, ThreadRequest, WorkerMessage } from './query-protocol'

/**
 * The service's queries run on a thread of their own (query-worker.ts), one
 * at a time, in the order they came. The thread that accepts connections and
 * reads requests only checks them and queues their work, so a request is read
 * at once however much work is ahead of it: Node's request timeout (which
 * counts until a request has been read) never counts its wait, and a
 * kept-alive connection is never closed for a timer that fired while the
 * loop was busy. One thread, not several: the work budget is CPU time of the
 * process (work-budget.ts), which two queries running side by side would
 * share, so a legal query could be refused for another's work.
 */

/** The built entry: `.js` in out/main/ (electron.vite.config.ts), `.cjs` in out/cli/ (scripts/build-cli.cjs). */
const BUILT_ENTRIES = ['service-query-worker.js', 'service-query-worker.cjs']

export interface QueryThreadOptions {
  budgetMs: number
  /** The most requests waiting for their answer (handed to the thread or not yet); default DEFAULT_MAX_WAITING. */
  maxWaiting?: number
  /** Lines for the service's log: the thread's own, and faults. */
  log(message: string): void
}

export interface QueryThread extends QueryWork {
  /**
   * The population of the dataset's most populous place with this folded
   * name, 0 when there is none (the demo judge's `largest`). Asked in turn
   * with the queries; a refusal (the service stopping, too many waiting) is
   * thrown as a ServiceError with the reply's status and message.
   */
  largest(name: string, wanted: () => boolean): Promise<number>
  /** Settles when the thread has loaded the dataset (with the milliseconds that took), or rejects with why it could not. */
  started: Promise<number>
  close(): Promise<void>
}

/** What a job asks of the thread: a query's answer, or a name's largest population. */
type Task = { type: 'answer'; query: CheckedQuery } | { type: 'largest'; name: string }

interface Job {
  id: number
  task: Task
  wanted: () => boolean
  resolve(reply: Reply): void
  reject(error: Error): void
}

/** Never sent: the client of a request skipped for this has closed its connection already. */
const CLIENT_GONE: Reply = jsonReply(499, { message: 'The client closed its connection before its query ran' })
/** For the requests still open when the service is stopped. */
const STOPPING: Reply = jsonReply(503, { message: 'The service is stopping: the query was not answered' })

/**
 * Requests handed to the thread before it has answered the ones before: it
 * still runs them one at a time, in order, but never sits idle waiting for
 * the next one to cross over (a cached chain's page is answered in tens of
 * microseconds, about what a message between threads takes). Requests past
 * these wait here, where a closed connection's request is dropped unrun.
 */
const AHEAD = 8

/**
 * Requests are read at once whatever waits ahead of them, so without a bound
 * a client that sends faster than the thread answers grows the queue, and
 * every later request's wait, without end. Far above what the app and the
 * command line send at once (an evaluation a few queries at a time, 50
 * queries renewing one token); past it a request is refused at once.
 */
export const DEFAULT_MAX_WAITING = 256

/** A busy service's answer, as an over-budget query's (work-budget.ts): 503 and a sentence naming the bound. */
function busy(maxWaiting: number): Reply {
  const waiting = maxWaiting === 1 ? '1 query is' : `${maxWaiting} queries are`
  return errorReply(
    new ServiceError(503, `Service busy: ${waiting} already waiting for the query thread, the most it keeps waiting. Try again in a moment.`, { 'Retry-After': '1' }),
  )
}

export function startQueryThread(options: QueryThreadOptions): QueryThread {
  const maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING
  const queue: Job[] = []
  /** The requests handed to the thread, in order: the first is the one it works on. */
  const handed: Job[] = []
  /** The thread, from its start until it ends; `ready` once it has loaded the dataset. */
  let thread: Worker | null = null
  let ready = false
  let starting: Promise<number> | null = null
  let closed = false
  let nextId = 1

  /** Starts a thread; the requests that wait for it fail with the reason if it cannot load the dataset. */
  const start = (): Promise<number> => {
    starting = spawn().then(
      (ms) => {
        starting = null
        next()
        return ms
      },
      (error: Error) => {
        starting = null
        for (const job of queue.splice(0)) job.reject(error)
        throw error
      },
    )
    return starting
  }

  const spawn = (): Promise<number> => {
    let worker: Worker
    try {
      worker = startWorker({ budgetMs: options.budgetMs })
    } catch (error) {
      return Promise.reject(error as Error)
    }
    thread = worker
    ready = false
    // The HTTP server keeps the process alive while it listens; this thread alone never does.
    worker.unref()
    return new Promise<number>((resolve, reject) => {
      worker.on('message', (message: WorkerMessage) => {
        switch (message.type) {
          case 'ready':
            ready = true
            resolve(message.startupMs)
            break
          case 'failed':
            reject(new Error(`the query thread could not load the dataset: ${message.message}`))
            break
          case 'log':
            options.log(message.message)
            break
          case 'reply':
          case 'fault':
            finish(message)
            break
        }
      })
      worker.on('error', (error) => options.log(`the query thread failed: ${error.stack ?? error.message}`))
      worker.on('exit', (code) => {
        const wasReady = ready
        thread = null
        ready = false
        if (!wasReady) return reject(new Error(`the query thread ended (exit code ${code}) before it had loaded the dataset`))
        if (closed) return
        // A thread that dies (out of memory, a fault outside a request) takes only the request it worked on with it.
        options.log(`the query thread ended (exit code ${code}); a new one starts for the next request`)
        const [working, ...unstarted] = handed.splice(0)
        working?.reject(new Error(`the query thread ended (exit code ${code}) while answering this request`))
        queue.unshift(...unstarted)
        next()
      })
    })
  }

  const finish = (message: Extract<WorkerMessage, { type: 'reply' | 'fault' }>) => {
    const at = handed.findIndex((job) => job.id === message.id)
    if (at < 0) return
    const [job] = handed.splice(at, 1)
    if (message.type === 'fault') job!.reject(new Error(message.message))
    else job!.resolve(withBuffer(message.reply))
    next()
  }

  /** Whether a new request may wait: at the bound, those whose clients have gone are dropped unrun to make room. */
  const room = (): boolean => {
    if (queue.length + handed.length < maxWaiting) return true
    for (let at = queue.length - 1; at >= 0; at--) {
      const job = queue[at]!
      if (job.wanted()) continue
      queue.splice(at, 1)
      job.resolve(CLIENT_GONE)
    }
    return queue.length + handed.length < maxWaiting
  }

  /** Hands the thread the oldest requests whose clients still wait, up to AHEAD of its answers, once it is ready. */
  const next = () => {
    if (closed || queue.length === 0 || handed.length >= AHEAD) return
    if (!thread || !ready) {
      // After a thread ended, the next request starts a new one (start() calls next() when it is ready).
      if (!starting) start().catch(() => undefined)
      return
    }
    while (handed.length < AHEAD && queue.length > 0) {
      const job = queue.shift()!
      if (!job.wanted()) {
        job.resolve(CLIENT_GONE)
        continue
      }
      handed.push(job)
      const message: ThreadRequest = job.task.type === 'answer' ? { type: 'answer', id: job.id, query: job.task.query } : { type: 'largest', id: job.id, name: job.task.name }
      thread.postMessage(message)
    }
  }

  const ask = (task: Task, wanted: () => boolean): Promise<Reply> => {
    if (closed) return Promise.resolve(STOPPING)
    if (!room()) return Promise.resolve(busy(maxWaiting))
    return new Promise<Reply>((resolve, reject) => {
      queue.push({ id: nextId++, task, wanted, resolve, reject })
      next()
    })
  }

  return {
    started: start(),
    answer: (query, wanted) => ask({ type: 'answer', query }, wanted),
    async largest(name, wanted) {
      const reply = await ask({ type: 'largest', name }, wanted)
      const body = JSON.parse(reply.body.toString()) as { population?: number; message?: string }
      if (reply.status !== 200) throw new ServiceError(reply.status, body.message ?? `The query thread answered ${reply.status}`, reply.headers['Retry-After'] ? { 'Retry-After': reply.headers['Retry-After'] } : {})
      return body.population ?? 0
    },
    async close() {
      closed = true
      for (const job of [...handed.splice(0), ...queue.splice(0)]) job.resolve(STOPPING)
      await thread?.terminate()
    },
  }
}

/** A body that crossed the threads arrives as a plain Uint8Array; the HTTP side writes Buffers. */
function withBuffer(reply: Reply): Reply {
  const { body } = reply
  if (typeof body === 'string' || Buffer.isBuffer(body)) return reply
  const bytes = body as Uint8Array
  return { ...reply, body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
}

/** The query worker, from sources or built (src/node/worker-thread.ts finds it, as it finds main's threads). */
function startWorker(data: QueryWorkerData): Worker {
  return startWorkerThread({ caller: __filename, source: 'query-worker.ts', built: BUILT_ENTRIES, workerData: data })
}
