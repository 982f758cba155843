import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp } from 'vue'
import { CLOCK } from '../../src/renderer/composables/clock'
import { MAX_TOASTS, useToastsStore } from '../../src/renderer/stores/toasts'
import { ManualClock } from '../fixtures/manual-clock'

/**
 * The toasts store's rules (src/renderer/stores/toasts.ts) on a clock the
 * test moves: what goes by itself and when, what replaces what, and how many
 * show. ToastStack.test.ts shows the same notes on the page.
 */

let clock: ManualClock
let toasts: ReturnType<typeof useToastsStore>

beforeEach(() => {
  // The store takes the clock the app provides, as the window's does.
  clock = new ManualClock()
  const pinia = createPinia()
  createApp({}).provide(CLOCK, clock).use(pinia)
  setActivePinia(pinia)
  toasts = useToastsStore()
})

const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}
const shown = () => toasts.toasts.map((toast) => toast.message)

async function advance(ms: number): Promise<void> {
  clock.advance(ms)
  await settle()
}

describe('toasts store', () => {
  it('lets a note go after 6 s, or the time asked; a failure stays until dismissed', async () => {
    toasts.show('Token issued.')
    toasts.show('Saved.', { durationMs: 1_000 })
    const failure = toasts.show('Not saved.', { tone: 'danger' })
    await advance(1_000)
    expect(shown()).toEqual(['Token issued.', 'Not saved.'])
    await advance(4_999)
    expect(shown()).toEqual(['Token issued.', 'Not saved.'])
    await advance(1)
    expect(shown()).toEqual(['Not saved.'])
    await advance(60_000)
    expect(shown()).toEqual(['Not saved.'])
    toasts.dismiss(failure)
    expect(shown()).toEqual([])
  })

  it('keeps a note while it is held, and lets it go 3 s after it is let go', async () => {
    const id = toasts.show('Token issued.')
    await advance(5_000)
    toasts.hold(id)
    await advance(10_000)
    expect(shown()).toEqual(['Token issued.'])
    toasts.release(id)
    await advance(2_999)
    expect(shown()).toEqual(['Token issued.'])
    await advance(1)
    expect(shown()).toEqual([])
  })

  it('replaces a note of the same key, or the same words and tone, and shows at most three', () => {
    toasts.show('Re-authenticated.', { key: 'reauth' })
    toasts.show('Re-authentication failed.', { key: 'reauth', tone: 'danger' })
    toasts.show('Offline.', { tone: 'danger' })
    toasts.show('Offline.')
    toasts.show('Offline.', { tone: 'danger' })
    expect(toasts.toasts.map((toast) => [toast.tone, toast.message])).toEqual([
      ['danger', 'Re-authentication failed.'],
      ['info', 'Offline.'],
      ['danger', 'Offline.'],
    ])
    toasts.show('Fourth.')
    expect(shown()).toHaveLength(MAX_TOASTS)
    expect(shown()).toEqual(['Offline.', 'Offline.', 'Fourth.'])
  })
})
