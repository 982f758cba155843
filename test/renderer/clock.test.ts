import { describe, expect, it } from 'vitest'
import { createApp } from 'vue'
import { systemClock } from '../../src/shared/time/clock'
import { CLOCK, useClock } from '../../src/renderer/composables/clock'
import { ManualClock } from '../fixtures/manual-clock'

/** The renderer's clock (src/renderer/composables/clock.ts): the one the app provides, else the real one. */

describe('useClock', () => {
  it('is the clock the app provides, and the real one outside an app or where none is provided', () => {
    const manual = new ManualClock()
    const app = createApp({})
    app.provide(CLOCK, manual)
    expect(app.runWithContext(useClock)).toBe(manual)
    expect(createApp({}).runWithContext(useClock)).toBe(systemClock)
    expect(useClock()).toBe(systemClock)
  })
})
