import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { Reply } from '../http/reply'
import { jsonReply } from '../http/reply'
import type { QueryWork } from '../http/query-route'
import type { CheckedQuery } from './query-check'
import type { AnswerMessage, QueryWorkerData, WorkerMessage } from './query-protocol'

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
  /** Lines for the service's log: the thread's own, and faults. */
  log(message: string): void
}

export interface QueryThread extends QueryWork {
  /** Settles when the thread has loaded the dataset (with the milliseconds that took), or rejects with why it could not. */
  started: Promise<number>
  close(): Promise<void>
}

interface Job {
  id: number
  query: CheckedQuery
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

export function startQueryThread(options: QueryThreadOptions): QueryThread {
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
      const message: AnswerMessage = { type: 'answer', id: job.id, query: job.query }
      thread.postMessage(message)
    }
  }

  return {
    started: start(),
    answer(query, wanted) {
      if (closed) return Promise.resolve(STOPPING)
      return new Promise<Reply>((resolve, reject) => {
        queue.push({ id: nextId++, query, wanted, resolve, reject })
        next()
      })
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

/**
 * From sources (vitest, tsx) this module is a .ts file: the thread loads
 * query-worker.ts beside it through tsx. Built, the entry is a sibling
 * bundle; this module may sit beside it or in a chunks/ folder below it.
 * (src/main/jobs/worker-entry.ts does the same for main's threads; the
 * service may not import from main.)
 */
function startWorker(data: QueryWorkerData): Worker {
  if (__filename.endsWith('.ts')) {
    const register = createRequire(__filename).resolve('tsx/cjs/api')
    const entry = resolve(dirname(__filename), 'query-worker.ts')
    return new Worker(`require(${JSON.stringify(register)}).register(); require(${JSON.stringify(entry)})`, { eval: true, workerData: data })
  }
  const here = dirname(__filename)
  const entry = [here, join(here, '..')].flatMap((folder) => BUILT_ENTRIES.map((name) => join(folder, name))).find((path) => existsSync(path))
  if (!entry) throw new Error(`${BUILT_ENTRIES[0]} is missing next to ${here}; build the app (npm run build)`)
  return new Worker(entry, { workerData: data })
}
