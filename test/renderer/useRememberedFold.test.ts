import { describe, expect, it } from 'vitest'
import { fakeBridge, installBridge, settle } from './fake-bridge'

/**
 * A panel's fold (src/renderer/composables/useRememberedFold.ts), remembered
 * apart for cramped and roomy windows. view-prefs.test.ts covers main's copy
 * against this origin's guess.
 */

/** The window's media query as a page has it (Node has none): the test says when the window turns cramped or roomy. */
const media = { matches: true, listeners: [] as ((event: { matches: boolean }) => void)[] }
;(globalThis as { matchMedia?: unknown }).matchMedia = () => ({
  get matches() {
    return media.matches
  },
  addEventListener: (_: string, listener: (event: { matches: boolean }) => void) => media.listeners.push(listener),
  removeEventListener: () => undefined,
})
function resize(cramped: boolean): void {
  media.matches = cramped
  for (const listener of media.listeners) listener({ matches: cramped })
}

const fake = fakeBridge()
installBridge(fake)
const { useRememberedFold } = await import('../../src/renderer/composables/useRememberedFold')

describe('useRememberedFold', () => {
  it('starts folded in a cramped window and open in a roomy one, and remembers a toggle for that kind of window only', async () => {
    const fold = useRememberedFold({ query: '(max-width: 1100px)', storageKey: 'query-explorer.insights', modes: ['narrow', 'wide'] })
    expect([fold.cramped.value, fold.open.value]).toEqual([true, false])
    resize(false)
    expect(fold.open.value).toBe(true)
    fold.toggle()
    expect(fold.open.value).toBe(false)
    resize(true)
    expect(fold.open.value).toBe(false)
    fold.toggle()
    expect(fold.open.value).toBe(true)
    resize(false)
    expect(fold.open.value).toBe(false)
    await settle()
    // The panel's name is the key's last part.
    expect(fake.calls.filter((call) => call.channel === 'view-prefs:set').map((call) => call.request)).toEqual([
      { folds: { insights: { wide: false } } },
      { folds: { insights: { narrow: true } } },
    ])
  })
})
