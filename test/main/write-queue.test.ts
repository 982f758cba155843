import { describe, expect, it } from 'vitest'
import { WriteQueue } from '../../src/main/storage/write-queue'

/** A promise the test settles by hand. */
function held<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)))
  return { promise, resolve, reject }
}

describe('WriteQueue', () => {
  it('runs work one at a time, in the order it was asked, whatever order it would end in', async () => {
    const queue = new WriteQueue()
    const log: string[] = []
    const first = held<string>()
    const a = queue.run(async () => {
      log.push('a starts')
      const value = await first.promise
      log.push('a ends')
      return value
    })
    const b = queue.run(async () => {
      log.push('b runs')
      return 'b'
    })
    await Promise.resolve()
    expect(log).toEqual(['a starts'])
    first.resolve('a')
    expect(await Promise.all([a, b])).toEqual(['a', 'b'])
    expect(log).toEqual(['a starts', 'a ends', 'b runs'])
  })

  it("gives a failure to its caller only, and goes on with the next", async () => {
    const queue = new WriteQueue()
    const failed = queue.run(async () => {
      throw new Error('disk full')
    })
    const next = queue.run(async () => 'written')
    await expect(failed).rejects.toThrow('disk full')
    expect(await next).toBe('written')
  })

  it('idle settles once everything asked so far has, a failure included', async () => {
    const queue = new WriteQueue()
    const gate = held<void>()
    let done = false
    void queue.run(() => gate.promise).catch(() => undefined)
    const idle = queue.idle().then(() => (done = true))
    await Promise.resolve()
    expect(done).toBe(false)
    gate.reject(new Error('refused'))
    await idle
    expect(done).toBe(true)
  })
})
