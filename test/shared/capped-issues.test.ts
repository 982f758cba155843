import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { issueBudget, listOf, MAX_ISSUES_NAMED, namedIssues } from '../../src/shared/capped-issues'

const Entry = z.strictObject({ n: z.number() })
const bad = (count: number) => Array.from({ length: count }, (_, index) => ({ n: String(index) }))

describe('listOf', () => {
  it('gives the elements\' output when every element is good', () => {
    expect(listOf(z.string().trim(), 5).parse([' a ', 'b'])).toEqual(['a', 'b'])
    expect(listOf(Entry, 5).parse([])).toEqual([])
  })

  it('names each problem with its element\'s index, up to the limit, and adds no count when none is left over', () => {
    expect(MAX_ISSUES_NAMED).toBe(20)
    const items = [{ n: 1 }, ...bad(20)]
    const issues = listOf(Entry, 100).safeParse(items).error!.issues
    expect(issues).toHaveLength(20)
    expect(issues[0]).toMatchObject({ path: [1, 'n'], message: 'Invalid input: expected number, received string' })
    expect(issues[19]!.path).toEqual([20, 'n'])
  })

  it('counts the problems past the limit in one last issue, in words', () => {
    const one = listOf(Entry, 100).safeParse(bad(21)).error!.issues
    expect(one).toHaveLength(21)
    expect(one[20]).toEqual({ code: 'custom', path: [], message: '… and 1 more problem', params: { moreIssues: 1 } })
    const many = listOf(Entry, 2_000).safeParse(bad(1_020)).error!.issues
    expect(many.at(-1)!.message).toBe('… and 1,000 more problems')
  })

  it('adds up what a nested list counted', () => {
    // The first inner list: 30 problems, 20 named and 10 counted; the second: one more, past the outer limit.
    const issues = listOf(listOf(z.number(), 100), 10).safeParse([Array(30).fill('x'), ['y']]).error!.issues
    expect(issues).toHaveLength(21)
    expect(issues[19]!.path).toEqual([0, 19])
    expect(issues[20]).toMatchObject({ params: { moreIssues: 11 } })
  })

  it('refuses a list longer than its bound', () => {
    expect(listOf(z.number(), 2).safeParse([1, 2, 3]).error!.issues).toEqual([
      expect.objectContaining({ code: 'too_big', maximum: 2, path: [] }),
    ])
  })

  it('takes the quick check\'s output for what it vouches for, and leaves the rest to the schema', () => {
    const quick = (item: unknown) => (item === 'fast' ? 'FAST' : undefined)
    expect(listOf(z.string(), 5, quick).parse(['fast', 'slow'])).toEqual(['FAST', 'slow'])
    expect(listOf(z.string(), 5, quick).safeParse(['fast', 3]).error!.issues[0]!.path).toEqual([1])
  })
})

describe('issueBudget', () => {
  it('names the first problems of a refinement and counts the rest', () => {
    const Ids = z.array(z.string()).superRefine((ids, context) => {
      const problems = issueBudget(context)
      ids.forEach((id, index) => {
        if (id.includes(' ')) problems.add({ path: [index], message: 'has a space' })
      })
      problems.finish()
    })
    expect(Ids.safeParse(['a', 'b c']).error!.issues).toEqual([expect.objectContaining({ path: [1], message: 'has a space' })])
    const issues = Ids.safeParse(Array(25).fill('x y')).error!.issues
    expect(issues).toHaveLength(21)
    expect(issues[20]).toMatchObject({ message: '… and 5 more problems', params: { moreIssues: 5 } })
    expect(Ids.safeParse(['a']).success).toBe(true)
  })
})

describe('namedIssues', () => {
  it('shows the first problems and counts all the others, counted ones included', () => {
    const issues = listOf(listOf(z.number(), 100), 10).safeParse([Array(30).fill('x'), ['y']]).error!.issues
    const { named, more } = namedIssues(issues, 5)
    // 31 problems in all: 5 shown, 15 named ones not shown, 11 counted.
    expect(named.map((issue) => issue.path)).toEqual([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]])
    expect(more).toBe(26)
  })

  it('counts nothing more when every problem is shown', () => {
    const issues = listOf(z.number(), 10).safeParse(['a', 'b']).error!.issues
    expect(namedIssues(issues, 5)).toEqual({ named: issues, more: 0 })
    expect(namedIssues([], 5)).toEqual({ named: [], more: 0 })
  })
})
