import { describe, expect, it } from 'vitest'
import { coverageOf, decimalText, durationText, figureTexts, overlapText, sharedCount, totalText } from '../../src/shared/compare/figure-text'
import { compareRankings } from '../../src/shared/compare/rank-metrics'

describe('the figures as the compare view writes them', () => {
  it('writes three decimals with a real minus sign, and n/a for no value', () => {
    expect(decimalText(0.18123)).toBe('0.181')
    expect(decimalText(1)).toBe('1.000')
    expect(decimalText(-1)).toBe('\u22121.000')
    expect(decimalText(-0.0001)).toBe('0.000')
    expect(decimalText(null)).toBe('n/a')
    expect(decimalText(Number.NaN)).toBe('n/a')
  })

  it('names each figure at the depth, with its value and a one-line explanation', () => {
    // The "san" case of the demo: 3 shared items, in reversed order.
    const ranked = compareRankings(['1', '2', '3', '4'], ['3', '5', '2', '1'], 4)
    const texts = figureTexts({ depth: 4, figures: ranked, changes: ranked.changes })
    expect(texts.map((text) => [text.id, text.name, text.value])).toEqual([
      ['overlap', 'Overlap@4', '3 of 4'],
      ['jaccard', 'Jaccard@4', '0.600'],
      ['rbo', 'RBO', decimalText(ranked.rbo)],
      ['tau', "Kendall's tau", '\u22121.000'],
    ])
    for (const text of texts) {
      expect(text.explanation).toMatch(/^[A-Z].*\.$/)
      expect(text.explanation).not.toContain('\n')
    }
    expect(texts[2]!.explanation).toContain('p = 0.9')
    expect(texts[3]!.explanation).toContain('the 3 items both lists hold')
    expect(sharedCount(ranked.changes)).toBe(3)
  })

  it('says what the figures cover when a side returned fewer than k: "9 of 9 (both sides returned only 9)", not "9 of 50"', () => {
    const nine = Array.from({ length: 9 }, (_, index) => `k${index}`)
    const same = compareRankings(nine, nine, 50)
    const texts = figureTexts({ depth: 50, figures: same, changes: same.changes })
    expect(texts[0]).toMatchObject({ name: 'Overlap@50', value: '9 of 9 (both sides returned only 9)' })
    expect(texts[0]!.explanation).toBe("How many of A's top 50 are also in B's top 50: at most 9, as both sides returned only 9.")
    // The metrics keep their definitions: Jaccard and RBO of two equal lists are 1, and say what they are over.
    expect(texts[1]!.value).toBe('1.000')
    expect(texts[2]!.value).toBe('1.000')
    for (const text of texts.slice(1, 3)) expect(text.explanation).toMatch(/Computed over the 9 items each side returned\.$/)

    const shortA = compareRankings(nine, [...nine.slice(2), ...Array.from({ length: 60 }, (_, index) => `b${index}`)], 50)
    const coverage = coverageOf(shortA)
    expect(coverage).toEqual({ depth: 50, a: 9, b: 50, possible: 9, note: 'A returned only 9' })
    expect(overlapText(shortA.overlap, coverage)).toBe('7 of 9 (A returned only 9)')
    expect(figureTexts({ depth: 50, figures: shortA, changes: shortA.changes })[1]!.explanation).toContain("Computed over the 9 items A returned and B's top 50.")
    const both = compareRankings(nine, nine.slice(0, 4).concat(['x', 'y']), 50)
    expect(overlapText(both.overlap, coverageOf(both))).toBe('4 of 6 (A returned only 9, B only 6)')
    const none = compareRankings([], nine, 10)
    expect(overlapText(none.overlap, coverageOf(none))).toBe('0 of 0 (A returned no results, B only 9)')
    // Both filled the depth: as before.
    const full = compareRankings(nine, nine, 5)
    expect(overlapText(full.overlap, coverageOf(full))).toBe('5 of 5')
    expect(figureTexts({ depth: 5, figures: full, changes: full.changes })[1]!.explanation).not.toContain('Computed over')
  })

  it('says why tau is n/a, and gives no figures when a side failed', () => {
    const ranked = compareRankings(['1', '2'], ['1', '3'], 10)
    const tau = figureTexts({ depth: 10, figures: ranked, changes: ranked.changes })[3]!
    expect(tau.value).toBe('n/a')
    expect(tau.explanation).toContain('fewer than two are shared')
    expect(figureTexts({ depth: 10, figures: null, changes: [] })).toEqual([])
  })

  it('writes durations and totals for people', () => {
    expect(durationText(12.4)).toBe('12 ms')
    expect(durationText(1_234.5)).toBe('1,235 ms')
    expect(durationText(12_345)).toBe('12.3 s')
    expect(totalText(5628)).toBe('5,628')
    expect(totalText(null)).toBe('–')
  })
})
