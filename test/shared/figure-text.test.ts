import { describe, expect, it } from 'vitest'
import { decimalText, durationText, figureTexts, sharedCount, totalText } from '../../src/shared/compare/figure-text'
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
    const ranked = compareRankings(['1', '2', '3', '4'], ['3', '5', '2', '1'], 10)
    const texts = figureTexts({ depth: 10, figures: ranked, changes: ranked.changes })
    expect(texts.map((text) => [text.id, text.name, text.value])).toEqual([
      ['overlap', 'Overlap@10', '3 of 10'],
      ['jaccard', 'Jaccard@10', '0.600'],
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
