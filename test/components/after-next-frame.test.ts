import { describe, expect, it } from 'vitest'
import { afterNextFrame } from '../../src/renderer/perf/after-next-frame'

/**
 * Work a new answer brings that is not the answer itself
 * (src/renderer/perf/after-next-frame.ts) waits, in Chromium, until the next
 * frame is drawn and the tasks that frame queued have run.
 */

describe('afterNextFrame', () => {
  it('runs the work after the next frame, behind a timer that frame set', async () => {
    const order: string[] = []
    requestAnimationFrame(() => order.push('frame'))
    const done = new Promise<void>((resolve) => afterNextFrame(() => {
      order.push('work')
      resolve()
    }))
    // Drawn in the same frame, after the work was put off: rows painted, then a timer set for what follows.
    requestAnimationFrame(() => setTimeout(() => order.push('timer set in the frame'), 0))
    order.push('now')
    await done
    expect(order).toEqual(['now', 'frame', 'timer set in the frame', 'work'])
  })
})
