import { describe, expect, it } from 'vitest'
import { figure, levelText, pValue, sideLetter, signed, whenText } from '../../src/renderer/components/experiments/experiment-format'

/**
 * How the Experiments view writes its figures: a difference always signed
 * (a true minus sign), a p-value to 3 decimals and "< 0.001" below, sides
 * lettered from A, the interval's level, and a kept run's time (the time
 * alone for today's). A dash wherever there is no figure.
 */

describe('experiment-format', () => {
  it('signs a difference, with a minus sign (U+2212) below zero, and no sign on what rounds to zero', () => {
    expect(signed(0.3444)).toBe('+0.344')
    expect(signed(-0.12)).toBe('\u22120.120')
    expect(signed(-0.0004)).toBe('0.000')
    expect(signed(0.0004)).toBe('0.000')
    expect(signed(0.0005)).toBe('+0.001')
    expect(signed(null)).toBe('—')
    expect(signed(undefined)).toBe('—')
  })

  it('writes a p-value to 3 decimals, and "< 0.001" below what a sampled test can tell apart', () => {
    expect(pValue(0.04949)).toBe('0.049')
    expect(pValue(0.001)).toBe('0.001')
    expect(pValue(0.000099)).toBe('< 0.001')
    expect(pValue(1)).toBe('1.000')
    expect(pValue(null)).toBe('—')
  })

  it('writes a figure as the Evaluation view does: 3 decimals, a dash for none', () => {
    expect(figure(0.75)).toBe('0.750')
    expect(figure(Number.NaN)).toBe('—')
    expect(figure(null)).toBe('—')
  })

  it('letters the sides from A, the baseline, and names the interval by its level', () => {
    expect([0, 1, 2, 25].map(sideLetter)).toEqual(['A', 'B', 'C', 'Z'])
    expect(levelText(0.05)).toBe('95 %')
    expect(levelText(0.1)).toBe('90 %')
    expect(levelText(0.025)).toBe('97.5 %')
  })

  it("writes today's time alone (with seconds where asked), and another day's date too", () => {
    const at = new Date(2026, 2, 4, 9, 5, 7).toISOString()
    const sameDay = new Date(2026, 2, 4, 18, 30)
    expect(whenText(at, { now: sameDay })).toBe('09:05')
    expect(whenText(at, { now: sameDay, seconds: true })).toBe('09:05:07')
    expect(whenText(at, { now: new Date(2026, 2, 5, 8, 0) })).toBe('4 Mar 2026, 09:05')
  })
})
