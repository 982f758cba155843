import { describe, expect, it } from 'vitest'
import { startupMarks } from '../../src/main/app/startup-marks'

/** The start-up line's figures: each part of the app's start timed on an injected clock. */

describe('start-up marks', () => {
  it('names each part with its own duration, parts that overlap included, and the whole', async () => {
    let now = 100
    const marks = startupMarks(() => now)
    let finishDemo!: () => void
    const demo = marks.time('demo service', () => new Promise<void>((resolve) => (finishDemo = resolve)))
    await marks.time('keychain', async () => {
      now += 40
    })
    now += 720
    finishDemo()
    await demo
    expect(marks.summary()).toBe('start-up 760 ms: keychain 40 ms, demo service 760 ms')
  })

  it('times a part that fails, and lets its error through', async () => {
    let now = 0
    const marks = startupMarks(() => now)
    await expect(
      marks.time('keychain', async () => {
        now += 5
        throw new Error('no keychain')
      }),
    ).rejects.toThrow('no keychain')
    expect(marks.summary()).toBe('start-up 5 ms: keychain 5 ms')
  })
})
