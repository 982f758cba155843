import { describe, expect, it } from 'vitest'
import { pollUntilDone } from '../../src/renderer/composables/poll-until-done'
import { ManualClock } from '../fixtures/manual-clock'

interface Status {
  state: 'running' | 'done'
  n: number
}

/** Lets pending promise callbacks run (no clock involved). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

/** A question the test answers by hand. */
function heldAsk() {
  const asked: { resolve(status: Status): void; reject(error: Error): void }[] = []
  const ask = () => new Promise<Status>((resolve, reject) => asked.push({ resolve, reject }))
  return { ask, asked }
}

const isDone = (status: Status) => status.state !== 'running'

describe('pollUntilDone', () => {
  it('waits, asks, and again, until an answer says it has ended; every answer is passed on', async () => {
    const clock = new ManualClock()
    const { ask, asked } = heldAsk()
    const answers: Status[] = []
    const polling = pollUntilDone(ask, isDone, { intervalMs: 250, clock, onAnswer: (answer) => answers.push(answer) })
    await settle()
    // The first question comes after a wait.
    expect(asked).toHaveLength(0)
    clock.advance(249)
    await settle()
    expect(asked).toHaveLength(0)
    clock.advance(1)
    await settle()
    expect(asked).toHaveLength(1)
    asked[0]!.resolve({ state: 'running', n: 1 })
    await settle()
    // No second question while the wait runs.
    expect(asked).toHaveLength(1)
    clock.advance(250)
    await settle()
    expect(asked).toHaveLength(2)
    asked[1]!.resolve({ state: 'done', n: 2 })
    expect(await polling).toEqual({ state: 'done', n: 2 })
    expect(answers).toEqual([
      { state: 'running', n: 1 },
      { state: 'done', n: 2 },
    ])
    expect(clock.sleeps).toEqual([250, 250])
    expect(clock.pending).toBe(0)
  })

  it('stops during a wait when the signal aborts, asking nothing more', async () => {
    const clock = new ManualClock()
    const { ask, asked } = heldAsk()
    const controller = new AbortController()
    const polling = pollUntilDone(ask, isDone, { intervalMs: 250, clock, signal: controller.signal })
    await settle()
    controller.abort()
    expect(await polling).toBeNull()
    clock.advance(1_000)
    await settle()
    expect(asked).toHaveLength(0)
    expect(clock.pending).toBe(0)
  })

  it('drops an answer, or a failure, that comes after the signal aborted', async () => {
    for (const outcome of ['answer', 'failure'] as const) {
      const clock = new ManualClock()
      const { ask, asked } = heldAsk()
      const controller = new AbortController()
      const answers: Status[] = []
      const polling = pollUntilDone(ask, isDone, { intervalMs: 250, clock, signal: controller.signal, onAnswer: (answer) => answers.push(answer) })
      clock.advance(250)
      await settle()
      expect(asked).toHaveLength(1)
      controller.abort()
      if (outcome === 'answer') asked[0]!.resolve({ state: 'running', n: 1 })
      else asked[0]!.reject(new Error('gone'))
      expect(await polling).toBeNull()
      expect(answers).toEqual([])
      expect(clock.pending).toBe(0)
    }
  })

  it('does not start when the signal has aborted already', async () => {
    const clock = new ManualClock()
    const { ask, asked } = heldAsk()
    const controller = new AbortController()
    controller.abort()
    expect(await pollUntilDone(ask, isDone, { intervalMs: 250, clock, signal: controller.signal })).toBeNull()
    expect(asked).toHaveLength(0)
    expect(clock.sleeps).toEqual([])
  })

  it('rejects with a question that fails, and asks nothing more', async () => {
    const clock = new ManualClock()
    const { ask, asked } = heldAsk()
    const polling = pollUntilDone(ask, isDone, { intervalMs: 250, clock })
    clock.advance(250)
    await settle()
    asked[0]!.reject(new Error('There is no export with that id.'))
    await expect(polling).rejects.toThrow('There is no export with that id.')
    clock.advance(1_000)
    await settle()
    expect(asked).toHaveLength(1)
    expect(clock.pending).toBe(0)
  })
})
