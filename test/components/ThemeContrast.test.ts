import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'

/**
 * Every text colour of the theme reads at 4.5:1 or more on every background
 * colour of that theme (WCAG AA, axe's colour-contrast rule), so no pairing a
 * view makes can fail it: the accent as text (--accent-ink), a warning or an
 * ok on a selected row, muted text on the active row in the dark theme.
 */

const TEXTS = ['--text', '--muted', '--accent-ink', '--warn', '--danger', '--ok']
const BACKGROUNDS = ['--bg', '--panel', '--panel-2', '--row-alt', '--row-hover', '--row-active', '--accent-soft', '--warn-soft', '--danger-soft']

afterEach(() => {
  delete document.documentElement.dataset.theme
})

/** A token's colour as the browser resolves it, as [r, g, b]. */
function colourOf(token: string): number[] {
  const probe = document.body.appendChild(document.createElement('span'))
  probe.style.color = `var(${token}, transparent)`
  const value = getComputedStyle(probe).color
  probe.remove()
  const channels = value.match(/[\d.]+/g)!.map(Number)
  expect(channels.length === 3 || channels[3] === 1, `${token} is set (${value})`).toBe(true)
  return channels.slice(0, 3)
}

function luminance([r, g, b]: number[]): number {
  const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4)
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!)
}

const contrast = (a: number[], b: number[]) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

describe('the theme colours', () => {
  for (const theme of ['light', 'dark']) {
    it(`keep every text colour at 4.5:1 or more on every background (${theme})`, () => {
      document.documentElement.dataset.theme = theme
      const low: string[] = []
      for (const text of TEXTS) {
        for (const background of BACKGROUNDS) {
          const ratio = contrast(colourOf(text), colourOf(background))
          if (ratio < 4.5) low.push(`${text} on ${background}: ${ratio.toFixed(2)}:1`)
        }
      }
      expect(low).toEqual([])
    })
  }
})
