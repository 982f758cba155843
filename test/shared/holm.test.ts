import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { holmAdjust } from '../../src/shared/experiments/holm'

describe('holmAdjust', () => {
  it('adjusts a hand-worked family of four, in the input order', () => {
    // Sorted: 0.005 × 4 = 0.02; 0.01 × 3 = 0.03; 0.03 × 2 = 0.06; 0.04 × 1 = 0.04, raised to 0.06.
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005])
    expect(adjusted[0]).toBeCloseTo(0.03, 15)
    expect(adjusted[1]).toBeCloseTo(0.06, 15)
    expect(adjusted[2]).toBeCloseTo(0.06, 15)
    expect(adjusted[3]).toBeCloseTo(0.02, 15)
    expect(holmAdjust([0.5, 0.4])).toEqual([0.8, 0.8])
    expect(holmAdjust([0.9, 0.6, 0.01])).toEqual([1, 1, 0.03])
    expect(holmAdjust([])).toEqual([])
  })

  it('is at least the raw p, at most 1, monotone in the sorted order, and leaves one p-value alone', () => {
    const p = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.01, 0.05, 1))
    fc.assert(
      fc.property(fc.array(p, { maxLength: 20 }), (pValues) => {
        const adjusted = holmAdjust(pValues)
        expect(adjusted).toHaveLength(pValues.length)
        adjusted.forEach((value, index) => {
          expect(value).toBeGreaterThanOrEqual(pValues[index]!)
          expect(value).toBeLessThanOrEqual(1)
        })
        const order = pValues.map((_, index) => index).sort((a, b) => pValues[a]! - pValues[b]!)
        for (let i = 1; i < order.length; i++) expect(adjusted[order[i]!]!).toBeGreaterThanOrEqual(adjusted[order[i - 1]!]!)
      }),
    )
    fc.assert(
      fc.property(p, (value) => {
        expect(holmAdjust([value])[0] === value).toBe(true) // −0 comes back as 0
      }),
    )
  })

  it('refuses a p-value outside [0, 1]', () => {
    expect(() => holmAdjust([0.5, 1.5])).toThrow(RangeError)
    expect(() => holmAdjust([Number.NaN])).toThrow(RangeError)
  })
})
