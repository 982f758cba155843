import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cohenKappa, kappaWeight, percentAgreement } from '../../src/shared/relevance/cohen-kappa'

/** A confusion matrix from rows (rater a's places) of columns (rater b's places). */
const matrix = (rows: number[][]) => rows.flat()

describe('cohenKappa', () => {
  it('is 1 when the raters agree on every item', () => {
    // Diagonal 1,1,1,1: observed disagreement 0, expected 12 × 1/4 > 0, so κ = 1 − 0 = 1 under every weighting.
    const perfect = matrix([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    expect(['none', 'linear', 'quadratic'].map((w) => cohenKappa(perfect, 4, w as 'none').value)).toEqual([1, 1, 1])
  })

  it('is 0 when the raters agree as often as chance would', () => {
    // [[1,1],[1,1]] on places 0 and 1: rows and columns 2,2, n 4, so E = 1 in each cell = O; κ = 1 − 2/2 = 0.
    const chance = matrix([[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    expect(cohenKappa(chance, 4, 'none').value).toBe(0)
    expect(cohenKappa(chance, 4, 'quadratic').value).toBe(0)
    expect(percentAgreement(chance, 4).value).toBe(0.5)
  })

  it('weighs a near miss by the distance between places on the scale: 1/3, 2/3, 6/7 for one miss by one step', () => {
    // a: 3, 0; b: 2, 0. O[3][2] = O[0][0] = 1; rows a: 0→1, 3→1; cols b: 0→1, 2→1; n 2; E = 1/2 at (0,0), (0,2), (3,0), (3,2).
    // unweighted: 1 − 1 / (½+½+½) = 1/3; linear: 1 − 1 / (½·2 + ½·3 + ½·1) = 2/3; quadratic: 1 − 1 / (½·4 + ½·9 + ½·1) = 6/7.
    const miss = matrix([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0]])
    expect(cohenKappa(miss, 4, 'none').value).toBeCloseTo(1 / 3, 15)
    expect(cohenKappa(miss, 4, 'linear').value).toBeCloseTo(2 / 3, 15)
    expect(cohenKappa(miss, 4, 'quadratic').value).toBeCloseTo(6 / 7, 15)
  })

  it('weighs by places, not grade values, as scikit-learn does', () => {
    expect([kappaWeight('linear', 0, 2), kappaWeight('quadratic', 0, 2), kappaWeight('none', 1, 1), kappaWeight('none', 0, 3)]).toEqual([2, 4, 0, 1])
  })

  it('is undefined, with why, for no shared item and for two raters who gave every item the same one grade', () => {
    expect(cohenKappa(new Float64Array(16), 4, 'none')).toEqual({ value: null, reason: 'no item was graded by both raters' })
    expect(percentAgreement(new Float64Array(16), 4).value).toBeNull()
    const same = matrix([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 5, 0], [0, 0, 0, 0]])
    expect(cohenKappa(same, 4, 'linear').value).toBeNull()
    expect(cohenKappa(same, 4, 'linear').reason).toMatch(/same one grade/)
    expect(percentAgreement(same, 4).value).toBe(1)
  })

  it('is never above 1, whatever the counts', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(20), { minLength: 16, maxLength: 16 }), fc.constantFrom('none', 'linear', 'quadratic'), (cells, weights) => {
        const kappa = cohenKappa(cells, 4, weights as 'none').value
        return kappa === null || kappa <= 1 + 1e-12
      }),
    )
  })
})
