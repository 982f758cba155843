import { describe, expect, it } from 'vitest'
import { seededRandom, textSeed } from '../../src/shared/seeded-random'

/** Expected values from an independent implementation (Python) of mulberry32 and of FNV-1a with murmur3's finaliser. */

describe('seededRandom', () => {
  it("draws mulberry32's numbers: the same seed, the same numbers", () => {
    const one = seededRandom(1)
    expect([one(), one(), one()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522])
    const zero = seededRandom(0)
    expect([zero(), zero()]).toEqual([0.26642920868471265, 0.0003297457005828619])
  })

  it('takes a seed as its 32 bits, and gives numbers in [0, 1)', () => {
    expect(seededRandom(2 ** 32 + 1)()).toBe(seededRandom(1)())
    const random = seededRandom(20261126)
    const values = Array.from({ length: 10_000 }, random)
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...values)).toBeLessThan(1)
  })
})

describe('textSeed', () => {
  it('hashes a text to 32 bits, by UTF-16 code unit', () => {
    expect([textSeed(''), textSeed('a'), textSeed('World cities'), textSeed('😀')]).toEqual([2872998923, 444641715, 2611400945, 1787143206])
  })
})
