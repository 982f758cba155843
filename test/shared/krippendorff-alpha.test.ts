import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addCoincidences, alphaDistance, krippendorffAlpha } from '../../src/shared/relevance/krippendorff-alpha'

/** The coincidence matrix of items given as their count of each grade. */
function coincidencesOf(items: number[][]): Float64Array {
  const size = items[0]!.length
  const o = new Float64Array(size * size)
  for (const counts of items) addCoincidences(o, counts, counts.reduce((a, b) => a + b, 0), size)
  return o
}

describe('krippendorffAlpha', () => {
  it('builds coincidences as the krippendorff package does: an item graded 3, 3, 2 adds 1 at (3,3), (3,2), (2,3)', () => {
    // m = 3: o[3][3] += (2·2 − 2)/2 = 1, o[3][2] = o[2][3] += 2·1/2 = 1, o[2][2] += (1 − 1)/2 = 0.
    expect(Array.from(coincidencesOf([[0, 0, 1, 2]]))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1])
    // An item with one grade adds nothing.
    expect(Array.from(coincidencesOf([[0, 1, 0, 0]])).every((x) => x === 0)).toBe(true)
  })

  it('gives −1/6, 0.0703125 and 1/22 for a rater who always says 2 against one who says 0, 1, 2, 3', () => {
    // o: (2,0), (2,1), (2,3) and mirrors 1 each, (2,2) 2; n = (1, 1, 5, 1), n.. = 8.
    // nominal: Do = 6, De = (64 − 28)/7; α = 1 − 42/36 = −1/6.
    // ordinal: δ²(0,2) = (7 − 3)² = 16, δ²(1,2) = δ²(2,3) = (6 − 3)² = 9; Do = 2(16 + 9 + 9) = 68;
    //   De = 2/7 · (1·1·1 + 5·16 + 1·49 + 5·9 + 1·36 + 5·9) = 512/7; α = 1 − 476/512 = 0.0703125.
    // interval: Do = 2(4 + 1 + 1) = 12, De = 2/7 · (1 + 20 + 9 + 5 + 4 + 5) = 88/7; α = 1 − 84/88 = 1/22.
    const o = coincidencesOf([[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 2, 0], [0, 0, 1, 1]])
    expect(krippendorffAlpha(o, [0, 1, 2, 3], 'nominal').value).toBeCloseTo(-1 / 6, 14)
    expect(krippendorffAlpha(o, [0, 1, 2, 3], 'ordinal').value).toBeCloseTo(0.0703125, 14)
    expect(krippendorffAlpha(o, [0, 1, 2, 3], 'interval').value).toBeCloseTo(1 / 22, 14)
  })

  it('measures interval distances in grade values and ordinal ones in how many grades lie between', () => {
    // Scale 0, 2, 5; items (0,2), (5,5), (2,5): n = (1, 2, 3), n.. = 6; Do = 2·4 + 2·9 = 26;
    // De = 2/5 · (1·2·4 + 1·3·25 + 2·3·9) = 274/5; α = 1 − 130/274 = 72/137.
    const o = coincidencesOf([[1, 1, 0], [0, 0, 2], [0, 1, 1]])
    expect(krippendorffAlpha(o, [0, 2, 5], 'interval').value).toBeCloseTo(72 / 137, 14)
    expect(alphaDistance('ordinal', 0, 2, [0, 2, 5], [1, 2, 3])).toBe((6 - 2) ** 2)
    expect(alphaDistance('ordinal', 2, 0, [0, 2, 5], [1, 2, 3])).toBe(16)
  })

  it('is undefined, with why, when no item has two grades or every grade is the same', () => {
    expect(krippendorffAlpha(coincidencesOf([[0, 1, 0]]), [0, 1, 2], 'nominal')).toEqual({ value: null, reason: 'no item was graded by two raters or more' })
    expect(krippendorffAlpha(coincidencesOf([[0, 2, 0], [0, 3, 0]]), [0, 1, 2], 'interval').reason).toMatch(/every grade is the same/)
  })

  it('is 1 for raters who all give the same grades, at least two distinct ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 2, maxLength: 40 }).filter((grades) => new Set(grades).size >= 2),
        fc.integer({ min: 2, max: 5 }),
        fc.constantFrom('nominal', 'ordinal', 'interval'),
        (grades, raters, level) => {
          const items = grades.map((grade) => [0, 1, 2, 3].map((g) => (g === grade ? raters : 0)))
          return krippendorffAlpha(coincidencesOf(items), [0, 1, 2, 3], level as 'nominal').value === 1
        },
      ),
    )
  })
})
