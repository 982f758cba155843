import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareRankings, jaccardAt, kendallTau, moveText, overlapAt, rankBiasedOverlap, rankChanges } from '../../src/shared/compare/rank-metrics'

/** RBO_ext by its definition, term by term, for lists of equal length (Webber et al., eq. 30). */
function rboEven(a: string[], b: string[], p: number): number {
  const k = a.length
  const x = (d: number) => a.slice(0, d).filter((key) => b.slice(0, d).includes(key)).length
  let sum = 0
  for (let d = 1; d <= k; d++) sum += (x(d) / d) * p ** d
  return (x(k) / k) * p ** k + ((1 - p) / p) * sum
}

const list = fc.uniqueArray(fc.integer({ min: 0, max: 30 }).map(String), { maxLength: 20 })

describe('overlap and Jaccard at k', () => {
  it('count the shared items of the two top k', () => {
    expect(overlapAt(['a', 'b', 'c', 'd'], ['c', 'a', 'x', 'd'], 3)).toBe(2)
    expect(jaccardAt(['a', 'b', 'c', 'd'], ['c', 'a', 'x', 'd'], 3)).toBeCloseTo(2 / 4)
    expect(jaccardAt([], [], 10)).toBe(1)
    expect(jaccardAt(['a'], [], 10)).toBe(0)
  })
})

describe('rank-biased overlap', () => {
  it('matches a hand-worked example', () => {
    // A = a b c, B = b a d, p = 0.5: X1 = 0, X2 = 2, X3 = 2.
    // (1−p)/p = 1; Σ X_d/d·p^d = 0 + 1·0.25 + (2/3)·0.125 = 1/3; + X3/3·p³ = (2/3)(1/8) = 1/12 → 5/12.
    expect(rankBiasedOverlap(['a', 'b', 'c'], ['b', 'a', 'd'], 0.5)).toBeCloseTo(5 / 12, 12)
  })

  it('matches the even-length definition term by term', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer(), (k, seed) => {
        const pool = Array.from({ length: 2 * k }, (_, index) => `i${(index * 7 + seed) % (2 * k)}`)
        const a = [...new Set(pool)].slice(0, k)
        const b = [...a].sort((x, y) => ((x.charCodeAt(1) * 31 + seed) % 17) - ((y.charCodeAt(1) * 31 + seed) % 17))
        expect(rankBiasedOverlap(a, b, 0.9)).toBeCloseTo(rboEven(a, b, 0.9), 10)
      }),
    )
  })

  it('handles lists of different lengths (eq. 32): a prefix that agrees scores high but below 1', () => {
    const long = ['a', 'b', 'c', 'd', 'e']
    const value = rankBiasedOverlap(['a', 'b', 'c'], long, 0.9)
    expect(value).toBeGreaterThan(0.9)
    expect(value).toBeLessThanOrEqual(1)
    // Eq. 32 by hand for s = 2, l = 3, p = 0.5: S = a b, L = a b c. X1 = 1, X2 = 2, X3 = 2.
    // (1−p)/p = 1; Σ_{d≤3} X_d/d·p^d = 0.5 + 0.25 + (2/3)(0.125) = 5/6; Σ_{d=3} X_s(d−s)/(s·d)·p^d = 2·1/6·0.125 = 1/24;
    // + ((X_l − X_s)/l + X_s/s)·p^l = (0 + 1)·0.125 → 5/6 + 1/24 + 1/8 = 1.
    expect(rankBiasedOverlap(['a', 'b'], ['a', 'b', 'c'], 0.5)).toBeCloseTo(1, 12)
  })

  it('is 1 for a list with itself, 0 for disjoint lists, symmetric, and within [0, 1]', () => {
    fc.assert(
      fc.property(list, list, (a, b) => {
        if (a.length > 0) expect(rankBiasedOverlap(a, a)).toBeCloseTo(1, 12)
        const value = rankBiasedOverlap(a, b)
        expect(value).toBeGreaterThanOrEqual(0)
        expect(value).toBeLessThanOrEqual(1)
        expect(rankBiasedOverlap(b, a)).toBeCloseTo(value, 12)
        const disjoint = b.map((key) => `other-${key}`)
        if (a.length > 0 && disjoint.length > 0) expect(rankBiasedOverlap(a, disjoint)).toBe(0)
      }),
    )
  })

  it('refuses a persistence outside (0, 1), naming it', () => {
    expect(() => rankBiasedOverlap(['a'], ['a'], 1)).toThrow(/persistence p/)
  })
})

describe("Kendall's tau", () => {
  it('is 1 for the same order, −1 reversed, and counts pairs in between', () => {
    expect(kendallTau(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1)
    expect(kendallTau(['a', 'b', 'c'], ['c', 'b', 'a'])).toBe(-1)
    // Pairs: ab concordant, ac concordant, bc discordant → (2 − 1)/3.
    expect(kendallTau(['a', 'b', 'c'], ['a', 'c', 'b'])).toBeCloseTo(1 / 3)
    // Only shared items count: x and y are left out.
    expect(kendallTau(['a', 'x', 'b'], ['b', 'y', 'a'])).toBe(-1)
    expect(kendallTau(['a'], ['a'])).toBeNull()
  })

  it('stays within [−1, 1] and is symmetric', () => {
    fc.assert(
      fc.property(list, list, (a, b) => {
        const tau = kendallTau(a, b)
        if (tau === null) return
        expect(tau).toBeGreaterThanOrEqual(-1)
        expect(tau).toBeLessThanOrEqual(1)
        expect(kendallTau(b, a)).toBeCloseTo(tau, 12)
      }),
    )
  })
})

describe('rank changes', () => {
  it('lists moves, new and gone items in reading order', () => {
    const rows = rankChanges(['a', 'b', 'c', 'd'], ['c', 'a', 'x', 'b'], 4)
    expect(rows.map((row) => [row.key, row.rankA, row.rankB, moveText(row.move)])).toEqual([
      ['a', 1, 2, '↓1'],
      ['b', 2, 4, '↓2'],
      ['c', 3, 1, '↑2'],
      ['d', 4, null, 'gone from B'],
      ['x', null, 3, 'new in B'],
    ])
  })

  it('compares at a depth: items below it do not count', () => {
    const result = compareRankings(['a', 'b', 'c'], ['a', 'c', 'b'], 1)
    expect(result).toMatchObject({ depth: 1, overlap: 1, jaccard: 1, rbo: 1, kendallTau: null })
    expect(result.changes).toHaveLength(1)
  })
})
