import { parentPort } from 'node:worker_threads'

/**
 * The worker's half of a thread started for one request (answerInThread,
 * worker-entry.ts): the request is read once, the work done, and one reply
 * posted, the work's value or the words it failed with. An experiment's
 * statistics, a set's agreement figures and What to judge next each run so.
 * Parts of the request too large for one message (What to judge next's
 * rankings, a page at a time) may come before it, each as `{ part }`:
 * they are handed to the work with the request.
 */

export type ThreadReply<T> = { ok: true; value: T } | { ok: false; message: string }

/** A part of the request, sent ahead of it. */
export interface ThreadPart<Part> {
  part: Part
}

/** Answers the one request this thread is started for with `work`'s value (`entry`: the entry's name, for the error when it is not run as a thread). */
export function answerOnce<Request, Result, Part = never>(entry: string, work: (request: Request, parts: Part[]) => Result): void {
  const port = parentPort
  if (!port) throw new Error(`${entry} runs as a worker thread`)
  const parts: Part[] = []
  const listener = (message: Request | ThreadPart<Part>) => {
    if (typeof message === 'object' && message !== null && 'part' in message) {
      parts.push((message as ThreadPart<Part>).part)
      return
    }
    port.off('message', listener)
    let reply: ThreadReply<Result>
    try {
      reply = { ok: true, value: work(message as Request, parts) }
    } catch (error) {
      reply = { ok: false, message: error instanceof Error ? error.message : String(error) }
    }
    port.postMessage(reply)
  }
  port.on('message', listener)
}
