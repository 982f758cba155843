import { describe, expect, it } from 'vitest'
import type { RankedQuery } from '../../src/main/evaluation/run-set'
import { rankingMemo } from '../../src/main/experiments/ranking-memo'

/** The rankings one experiment's evaluations share: asked once per key, counted when reused, forgotten when they fail. */

const ranked = (pages: number): RankedQuery => ({ items: ['a'], labels: ['A'], probabilities: [1], pages })

describe('rankingMemo', () => {
  it('ranks a key once, hands the same ranking to every later asker, and counts the pages it saved', async () => {
    const { memo, reused } = rankingMemo()
    let asked = 0
    const rank = async () => (asked++, ranked(3))
    // The second asker comes while the first is still under way: it waits for that one.
    const [first, second] = await Promise.all([memo('k', rank), memo('k', rank)])
    const third = await memo('k', rank)
    expect(asked).toBe(1)
    expect(second).toBe(first)
    expect(third).toBe(first)
    expect(reused()).toBe(6)
    await memo('other', rank)
    expect([asked, reused()]).toEqual([2, 6])
  })

  it('forgets a ranking that failed, so the next asker asks again', async () => {
    const { memo, reused } = rankingMemo()
    await expect(memo('k', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    expect(await memo('k', async () => ranked(1))).toEqual(ranked(1))
    expect(reused()).toBe(0)
  })
})
