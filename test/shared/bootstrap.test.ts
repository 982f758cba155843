import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bootstrapInterval } from '../../src/shared/experiments/bootstrap'
import { delta, mean } from '../fixtures/deltas'

describe('bootstrapInterval', () => {
  it('is null with no delta, and [c, c] when every delta is c', () => {
    expect(bootstrapInterval([])).toBeNull()
    expect(bootstrapInterval([0, 0, 0])).toEqual([0, 0])
    expect(bootstrapInterval([0.1, 0.1, 0.1])).toEqual([0.1, 0.1])
    expect(bootstrapInterval([-0.3])).toEqual([-0.3, -0.3])
  })

  it('reads the quantiles by Hyndman & Fan definition 7', () => {
    // Two deltas, 0 and 1: a draw's mean is 0, 0.5 or 1 (¼, ½, ¼). With 10,000
    // draws the 2.5% and 97.5% points fall well inside the first and last
    // groups; at level 0.4 the 30% and 70% points fall inside the middle one.
    expect(bootstrapInterval([0, 1])).toEqual([0, 1])
    expect(bootstrapInterval([0, 1], { level: 0.4 })).toEqual([0.5, 0.5])
  })

  it('is wide for one huge win among small losses (n = 10), and holds the mean', () => {
    // deltas +0.9 and nine of −0.05. A draw's mean is (0.95k − 0.5)/10 when it
    // holds the win k times, k ~ Binomial(10, 0.1). P(k = 0) = 0.9^10 = 0.349 >
    // 0.025, so the lower end is −0.05; P(k ≤ 2) = 0.930 and P(k ≤ 3) = 0.987,
    // so the 97.5% point is at k = 3: (2.85 − 0.5)/10 = 0.235.
    const deltas = [0.9, ...new Array<number>(9).fill(-0.05)]
    const interval = bootstrapInterval(deltas)!
    expect(interval[0]).toBeCloseTo(-0.05, 12)
    expect(interval[1]).toBeCloseTo(0.235, 12)
    expect(interval[0]).toBeLessThanOrEqual(mean(deltas))
    expect(interval[1]).toBeGreaterThanOrEqual(mean(deltas))
  })

  it('refuses options it cannot honour', () => {
    expect(() => bootstrapInterval([0.1], { resamples: 0 })).toThrow(RangeError)
    expect(() => bootstrapInterval([0.1], { level: 1 })).toThrow(RangeError)
    expect(() => bootstrapInterval([0.1], { level: 0 })).toThrow(RangeError)
  })

  it('contains the mean delta, lies within the deltas, and reruns alike with the same seed', () => {
    fc.assert(
      fc.property(fc.array(delta, { minLength: 2, maxLength: 30 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (deltas, seed) => {
        const options = { resamples: 400, seed }
        const [low, high] = bootstrapInterval(deltas, options)!
        const average = mean(deltas)
        // The mean as summed here and as summed in a draw differ by rounding only.
        const slack = 1e-12 * Math.max(...deltas.map(Math.abs))
        expect(low).toBeLessThanOrEqual(average + slack)
        expect(high).toBeGreaterThanOrEqual(average - slack)
        expect(low).toBeLessThanOrEqual(high)
        expect(low).toBeGreaterThanOrEqual(Math.min(...deltas))
        expect(high).toBeLessThanOrEqual(Math.max(...deltas))
        expect(bootstrapInterval(deltas, options)).toEqual([low, high])
      }),
      { numRuns: 300 },
    )
  })

  it('is [c, c] whenever all deltas are c', () => {
    fc.assert(
      fc.property(delta, fc.integer({ min: 1, max: 40 }), (c, n) => {
        const value = c === 0 ? 0 : c // −0 and 0 are one figure
        expect(bootstrapInterval(new Array(n).fill(value), { resamples: 50 })).toEqual([value, value])
      }),
    )
  })
})
