import { afterAll, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { nextTick } from 'vue'
import { fakeBridge, settle } from '../renderer/fake-bridge'

/**
 * The theme (src/renderer/theme/theme.ts), in Chromium: the one picked
 * switches the page's tokens at once, is kept where the next page's first
 * paint reads it, and is sent to main among the view preferences.
 */

const fake = fakeBridge()
window.explorer = fake.bridge
const { useTheme, THEME_CHOICES } = await import('../../src/renderer/theme/theme')

afterAll(() => {
  delete window.explorer
  delete document.documentElement.dataset.theme
  // This origin's storage is every component test's: leave it as found.
  localStorage.removeItem('query-explorer.theme')
  localStorage.removeItem('query-explorer.view-prefs')
})

describe('useTheme', () => {
  it("follows the system's light or dark until one is picked", () => {
    const { choice, applied } = useTheme()
    expect(THEME_CHOICES).toEqual(['light', 'dark', 'system'])
    expect(choice.value).toBe('system')
    const systemDark = matchMedia('(prefers-color-scheme: dark)').matches
    expect(applied.value).toBe(systemDark ? 'dark' : 'light')
    expect(document.documentElement.dataset.theme).toBe(applied.value)
  })

  it('applies the theme picked to the page at once, keeps it for the next first paint, and sends it to main', async () => {
    const { choice, applied, choose } = useTheme()
    choose('dark')
    await nextTick()
    expect([choice.value, applied.value, document.documentElement.dataset.theme]).toEqual(['dark', 'dark', 'dark'])
    // The stylesheet's tokens follow: the page is drawn dark.
    expect(getComputedStyle(document.documentElement).colorScheme).toBe('dark')
    expect(localStorage.getItem('query-explorer.theme')).toBe('dark')
    choose('light')
    await nextTick()
    expect(document.documentElement.dataset.theme).toBe('light')
    await settle()
    expect(fake.calls.filter((call) => call.channel === 'view-prefs:set').map((call) => call.request)).toEqual([{ theme: 'dark' }, { theme: 'light' }])
  })
})
