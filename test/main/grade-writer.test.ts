import { describe, expect, it } from 'vitest'
import { GradeWriter } from '../../src/main/judges/grade-writer'
import type { Rating } from '../../src/main/workspaces/rating-index'

const rating = (item: string, grade = 2): Rating => ({ set: 'Cities', query: 'q1', item, rater: 'llm:demo', grade })

describe('GradeWriter', () => {
  it('writes the first grade at once and those that come during a write together in the next one', async () => {
    const batches: string[][] = []
    let release: () => void = () => undefined
    const writer = new GradeWriter(async (ratings) => {
      batches.push(ratings.map((each) => each.item))
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve))
      return ratings.map(() => null)
    })
    const settled: string[] = []
    const takes = ['a', 'b', 'c', 'd'].map((item) => writer.take(rating(item)).then(() => settled.push(item)))
    // a is being written; b, c and d wait for it.
    expect(batches).toEqual([['a']])
    await Promise.resolve()
    expect(settled).toEqual([])
    release()
    await Promise.all(takes)
    expect(batches).toEqual([['a'], ['b', 'c', 'd']])
    expect(settled).toEqual(['a', 'b', 'c', 'd'])
    await writer.drained()
  })

  it('a refused grade rejects with its reason, the others of its batch are taken; a write that throws refuses its whole batch', async () => {
    let fail = false
    const writer = new GradeWriter(async (ratings) => {
      if (fail) throw new Error('the database is gone')
      return ratings.map((each) => (each.item === 'bad' ? 'grade: 7 is not a grade of the set\'s scale' : null))
    })
    const results = await Promise.allSettled([writer.take(rating('ok')), writer.take(rating('bad')), writer.take(rating('fine'))])
    expect(results.map((result) => (result.status === 'fulfilled' ? 'taken' : (result.reason as Error).message))).toEqual(['taken', "grade: 7 is not a grade of the set's scale", 'taken'])
    fail = true
    await expect(writer.take(rating('x'))).rejects.toThrow('the database is gone')
  })

  it('writes at most maxBatch at a time', async () => {
    const sizes: number[] = []
    const writer = new GradeWriter(async (ratings) => {
      sizes.push(ratings.length)
      return ratings.map(() => null)
    }, 3)
    await Promise.all(Array.from({ length: 8 }, (_, index) => writer.take(rating(`i${index}`))))
    expect(sizes).toEqual([1, 3, 3, 1])
  })
})
