import { describe, expect, it } from 'vitest'
import { addFleissItem, fleissKappa, fleissTally } from '../../src/shared/relevance/fleiss-kappa'

function kappaOf(raters: number, items: number[][]) {
  const tally = fleissTally(raters, items[0]!.length)
  for (const counts of items) addFleissItem(tally, counts)
  return fleissKappa(tally)
}

describe('fleissKappa', () => {
  it('is 1 when every item gets one grade from all its raters', () => {
    // Pᵢ = (9 − 3) / 6 = 1 for each; p = (1/2, 0, 1/2), P̄ₑ = 1/2; κ = (1 − ½) / (1 − ½) = 1.
    expect(kappaOf(3, [[3, 0, 0], [0, 0, 3]]).value).toBe(1)
  })

  it('is 0 at chance: two raters, items (0,0), (0,1), (1,0), (1,1)', () => {
    // Pᵢ = 1, 0, 0, 1, P̄ = ½; p = (½, ½), P̄ₑ = ½; κ = 0.
    expect(kappaOf(2, [[2, 0], [1, 1], [1, 1], [0, 2]]).value).toBe(0)
  })

  it('is −1/3 when one rater always says 2 and the other says 0, 1, 2, 3', () => {
    // Pᵢ = 0, 0, 1, 0, P̄ = ¼; p = (1, 1, 5, 1)/8, P̄ₑ = 28/64; κ = (¼ − 28/64) / (36/64) = −12/36.
    expect(kappaOf(2, [[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 2, 0], [0, 0, 1, 1]]).value).toBeCloseTo(-1 / 3, 15)
  })

  it('is undefined, with why, when every grade is the same or there is no item', () => {
    expect(kappaOf(2, [[0, 2], [0, 2]])).toEqual({ value: null, reason: 'every grade is the same, so chance alone would agree as well' })
    expect(fleissKappa(fleissTally(3, 4)).value).toBeNull()
    expect(fleissKappa(fleissTally(1, 4)).reason).toMatch(/two raters or more/)
  })
})
