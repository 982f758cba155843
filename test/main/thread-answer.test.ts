import { isMainThread, type Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { answerOnce } from '../../src/main/jobs/thread-answer'
import { startWorkerThread } from '../../src/node/worker-thread'
import type { EchoRequest } from '../fixtures/thread-answer-worker'

/**
 * The worker's half of a thread started for one request, on a real worker
 * thread: the entry (test/fixtures/thread-answer-worker.ts) is started from
 * sources as main's entries are (src/node/worker-thread.ts, tsx registered
 * first), and the messages are the ones answerInThread sends.
 */

describe('answerOnce', () => {
  const workers: Worker[] = []
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.terminate()))
  })

  /**
   * Starts the entry, posts `messages` in order and then one more request
   * (which a thread started for one request must not answer), and gives back
   * every message it posted until its thread ended on its own, or until a
   * second one (a thread that answers twice may never end), with the exit code.
   */
  function exchange(messages: readonly unknown[]): Promise<{ replies: unknown[]; exitCode: number }> {
    const worker = startWorkerThread({ caller: __filename, source: '../fixtures/thread-answer-worker.ts', built: ['thread-answer-worker.js'] })
    workers.push(worker)
    const replies: unknown[] = []
    const ended = new Promise<{ replies: unknown[]; exitCode: number }>((resolve, reject) => {
      worker.on('message', (reply: unknown) => {
        if (replies.push(reply) > 1) resolve({ replies, exitCode: -1 })
      })
      worker.once('error', reject)
      worker.once('exit', (exitCode) => resolve({ replies, exitCode }))
    })
    for (const message of [...messages, { say: 'one request too many' } satisfies EchoRequest]) worker.postMessage(message)
    return ended
  }

  it('answers the request with the work’s value, once: a second request gets no answer and the thread ends', async () => {
    const first: EchoRequest = { say: 'Paris' }
    const { replies, exitCode } = await exchange([first])
    expect(replies).toEqual([{ ok: true, value: { request: first, parts: [] } }])
    expect(exitCode).toBe(0)
  })

  it('hands the work the parts sent ahead of the request, in the order sent', async () => {
    const request: EchoRequest = { say: 'rankings' }
    const pages = [['a', 'b'], ['c'], [], ['d', 'e', 'f']]
    const { replies } = await exchange([...pages.map((page) => ({ part: page })), request])
    expect(replies).toEqual([{ ok: true, value: { request, parts: pages } }])
  })

  it('answers work that throws with the error’s words, not a crash of the thread', async () => {
    const { replies, exitCode } = await exchange([{ part: 1 }, { say: 'x', fail: 'the scale has no grade 7' } satisfies EchoRequest])
    expect(replies).toEqual([{ ok: false, message: 'the scale has no grade 7' }])
    expect(exitCode).toBe(0)
  })

  it('run outside a worker thread, refuses naming the entry', () => {
    // The node project runs each test file in a process of its own (pool: forks), on its main thread.
    expect(isMainThread).toBe(true)
    let worked = false
    expect(() =>
      answerOnce('stats-worker', () => {
        worked = true
      }),
    ).toThrow(new Error('stats-worker runs as a worker thread'))
    expect(worked).toBe(false)
  })
})
