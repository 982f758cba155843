import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pairedRandomizationTest } from '../../src/shared/experiments/paired-randomization'
import { seededRandom } from '../../src/shared/seeded-random'
import { delta } from '../fixtures/deltas'

describe('pairedRandomizationTest', () => {
  it('gives p = 1 when there is nothing to test: no delta, or only zeros', () => {
    expect(pairedRandomizationTest([])).toEqual({ p: 1, method: 'exact', permutations: 1 })
    expect(pairedRandomizationTest([0, 0, 0])).toEqual({ p: 1, method: 'exact', permutations: 1 })
    expect(pairedRandomizationTest(new Array(40).fill(0))).toEqual({ p: 1, method: 'exact', permutations: 1 })
  })

  it('enumerates a hand-worked case of n = 4', () => {
    // deltas 0.4, 0.2, 0.1, −0.1: observed sum 0.6, mean 0.15. The 16 sign
    // patterns (± on 0.4, 0.2, 0.1, 0.1; the last delta's own sign does not
    // change the set) give the means (sum / 4):
    //   + + + +  0.20     − − − −  −0.20
    //   + + + −  0.15     − − − +  −0.15
    //   + + − +  0.15     − − + −  −0.15
    //   + + − −  0.10     − − + +  −0.10
    //   + − + +  0.10     − + − −  −0.10
    //   + − + −  0.05     − + − +  −0.05
    //   + − − +  0.05     − + + −  −0.05
    //   + − − −  0.00     − + + +   0.00
    // |mean| ≥ 0.15: 0.20, 0.15, 0.15 and their negatives, 6 of 16.
    // Three of the six tie the observed 0.15 exactly: they count only because
    // the comparison allows for rounding (0.4 + 0.2 + 0.1 − 0.1 is not
    // 0.4 + 0.2 − 0.1 + 0.1 in floating point).
    expect(pairedRandomizationTest([0.4, 0.2, 0.1, -0.1])).toEqual({ p: 6 / 16, method: 'exact', permutations: 16 })
    // Zeros are set aside: each pattern above would occur 4 times among 64.
    expect(pairedRandomizationTest([0, 0.4, 0.2, 0, 0.1, -0.1])).toEqual({ p: 6 / 16, method: 'exact', permutations: 16 })
    // The sign of every delta flipped: the same p.
    expect(pairedRandomizationTest([-0.4, -0.2, -0.1, 0.1]).p).toBe(6 / 16)
  })

  it("reproduces Fisher's test on Darwin's Zea mays pairs: 1726 of 32768 patterns, p = 5.267%", () => {
    // Fisher, The Design of Experiments (1935), §21: the 15 differences in
    // height (cross- minus self-fertilized, eighths of an inch) sum to 314;
    // 863 of the 2^15 sign patterns give a sum of at least 314, as many at
    // most −314, so the two-sided p is 1726 / 32768 = 5.267 per cent.
    const darwin = [49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48]
    expect(darwin.reduce((sum, value) => sum + value, 0)).toBe(314)
    expect(pairedRandomizationTest(darwin)).toEqual({ p: 1726 / 32768, method: 'exact', permutations: 32768 })
    expect(pairedRandomizationTest(darwin).p).toBeCloseTo(0.05267, 5)
    // The same as figures of a metric (scaled into [−1, 1]): the same count, ties and all.
    expect(pairedRandomizationTest(darwin.map((value) => value / 80)).p).toBe(1726 / 32768)
  })

  it('finds no evidence in one huge win among small losses (n = 10: p = 1)', () => {
    // deltas +0.9 and nine of −0.05: observed sum 0.45. Let j be how many of
    // the nine losses a pattern turns into +0.05; they then sum to
    // 0.05·(2j − 9).
    //   +0.9 kept:    sum = 0.9 + 0.1j − 0.45 = 0.45 + 0.1j ≥ 0.45 for every j: 512 patterns.
    //   +0.9 flipped: sum = −0.9 + 0.1j − 0.45 = 0.1j − 1.35, from −1.35 (j = 0)
    //                 to −0.45 (j = 9): |sum| ≥ 0.45 for every j: 512 patterns
    //                 (j = 9, all signs flipped, ties the observed value).
    // All 1024 patterns are at least as extreme: p = 1. A single query carries
    // the whole mean, and the test says so.
    const deltas = [0.9, ...new Array<number>(9).fill(-0.05)]
    expect(pairedRandomizationTest(deltas)).toEqual({ p: 1, method: 'exact', permutations: 1024 })
  })

  it('finds a consistent small win significant, and a sampled p is never 0', () => {
    // Eight wins of 0.1: only the two patterns with all signs alike reach |sum| 0.8.
    expect(pairedRandomizationTest(new Array(8).fill(0.1))).toEqual({ p: 2 / 256, method: 'exact', permutations: 256 })
    // Forty: sampled; none of 10,000 draws reaches it, p = 1/10001 (Phipson & Smyth).
    expect(pairedRandomizationTest(new Array(40).fill(0.1))).toEqual({ p: 1 / 10_001, method: 'sampled', permutations: 10_000 })
    expect(pairedRandomizationTest(new Array(40).fill(0.1), { permutations: 99 }).p).toBe(1 / 100)
  })

  it('agrees, sampling, with the exact enumeration within the sampling error (n = 14, 100,000 draws)', () => {
    const random = seededRandom(14)
    const deltas = Array.from({ length: 14 }, () => Math.round((random() - 0.35) * 60) / 100)
    const exact = pairedRandomizationTest(deltas)
    expect(exact.method).toBe('exact')
    expect(exact.permutations).toBe(2 ** deltas.filter((value) => value !== 0).length)
    expect(exact.p).toBeGreaterThan(0.01)
    expect(exact.p).toBeLessThan(0.99)
    const N = 100_000
    const sampled = pairedRandomizationTest(deltas, { exactUpTo: 0, permutations: N })
    expect(sampled.method).toBe('sampled')
    expect(sampled.permutations).toBe(N)
    expect(Math.abs(sampled.p - exact.p)).toBeLessThan(4 * Math.sqrt((exact.p * (1 - exact.p)) / N) + 1 / N)
  })

  it('draws the same sign patterns as applying each draw bit by bit: bit i of a draw is the sign of delta i (n not a multiple of 8 or 32)', () => {
    // The definition, one delta at a time: draw a 32-bit word per 32 deltas, bit i & 31 flips delta i.
    const byDefinition = (deltas: number[], permutations: number, seed: number) => {
      const random = seededRandom(seed)
      const values = deltas.filter((value) => value !== 0)
      const scale = values.reduce((sum, value) => sum + Math.abs(value), 0)
      const bar = Math.abs(values.reduce((sum, value) => sum + value, 0)) - 1e-10 * scale
      let count = 0
      for (let draw = 0; draw < permutations; draw++) {
        let sum = 0
        let bits = 0
        values.forEach((value, i) => {
          if (i % 32 === 0) bits = (random() * 4_294_967_296) >>> 0
          sum += (bits >>> (i % 32)) & 1 ? -value : value
        })
        if (Math.abs(sum) >= bar) count++
      }
      return (count + 1) / (permutations + 1)
    }
    const random = seededRandom(35)
    for (const n of [17, 37, 100, 1003]) {
      const deltas = Array.from({ length: n }, () => Math.round((random() - 0.45) * 1000) / 1000)
      expect(pairedRandomizationTest(deltas, { permutations: 2_000, seed: n }).p, `n = ${n}`).toBe(byDefinition(deltas, 2_000, n))
    }
  })

  it('refuses options it cannot honour', () => {
    expect(() => pairedRandomizationTest([0.1], { permutations: 0 })).toThrow(RangeError)
    expect(() => pairedRandomizationTest([0.1], { permutations: 1.5 })).toThrow(RangeError)
    expect(() => pairedRandomizationTest([0.1], { exactUpTo: 27 })).toThrow(RangeError)
    expect(() => pairedRandomizationTest([0.1, Number.NaN])).toThrow(RangeError)
  })

  it('gives p in (0, 1], the same p to the same seed, and the same p to the deltas negated', () => {
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 22 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (deltas, seed) => {
        const options = { permutations: 300, seed }
        const result = pairedRandomizationTest(deltas, options)
        expect(result.p).toBeGreaterThan(0)
        expect(result.p).toBeLessThanOrEqual(1)
        expect(pairedRandomizationTest(deltas, options)).toEqual(result)
        expect(pairedRandomizationTest(deltas.map((value) => -value), options).p).toBe(result.p)
        // The observed pattern and its mirror image are always among those counted.
        if (result.method === 'exact' && result.permutations > 1) expect(result.p).toBeGreaterThanOrEqual(2 / result.permutations)
      }),
      { numRuns: 200 },
    )
  })
})
