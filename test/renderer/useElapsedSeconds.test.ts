import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { effectScope, nextTick, ref } from 'vue'
import { useElapsedSeconds } from '../../src/renderer/composables/useElapsedSeconds'

/** The seconds a run has taken so far (src/renderer/composables/useElapsedSeconds.ts), on timers the test moves. */

beforeEach(() => void vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] }))
afterEach(() => void vi.useRealTimers())

describe('useElapsedSeconds', () => {
  it('is 0 before a start, ticks every 100 ms while running, and stands still once stopped', async () => {
    const running = ref(false)
    const startedAt = ref<number | null>(null)
    const scope = effectScope()
    // Run outside a component: Vue warns that the unmount hook has no component to go with; the scope stops the rest.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const seconds = scope.run(() => useElapsedSeconds(running, startedAt))!
    warn.mockRestore()
    expect(seconds.value).toBe(0)

    startedAt.value = performance.now()
    running.value = true
    await nextTick()
    vi.advanceTimersByTime(1_250)
    expect(seconds.value).toBe(1.2)
    running.value = false
    await nextTick()
    vi.advanceTimersByTime(5_000)
    expect(seconds.value).toBe(1.2)
    startedAt.value = null
    expect(seconds.value).toBe(0)
    scope.stop()
  })
})
