import { describe, expect, it } from 'vitest'
import { depthNeeded, needsTotal, TestCaseSchema } from '../../src/shared/test-cases/test-case'

describe('test cases', () => {
  it('asks for as many results as the deepest expectation needs, and the top 10 at least when it ranks an item', () => {
    expect(depthNeeded({})).toBe(1)
    expect(depthNeeded({ firstItem: [{ field: 'id', equals: 'a' }] })).toBe(1)
    expect(depthNeeded({ contains: [{ id: 'a', within: 20 }], snapshot: { ids: ['a', 'b'], minRbo: 0.9 } })).toBe(20)
    // So that an item missed at rank 1 is reported where it was.
    expect(depthNeeded({ rankAtMost: [{ id: 'a', rank: 1 }] })).toBe(10)
    expect(depthNeeded({ absent: [{ id: 'a', within: 3 }] })).toBe(10)
  })

  it('asks for the total only when an expectation bounds it', () => {
    expect(needsTotal({ totalAtLeast: 0 })).toBe(true)
    expect(needsTotal({ totalAtMost: 10 })).toBe(true)
    expect(needsTotal({ status: 200, contains: [{ id: 'a', within: 3 }] })).toBe(false)
  })

  it('looks no deeper than 100, the most an expectation may ask', () => {
    // The schema refuses a `within` past 100; one built in code is still held to it.
    expect(depthNeeded({ contains: [{ id: 'a', within: 150 }] })).toBe(100)
    expect(depthNeeded({ snapshot: { ids: Array.from({ length: 40 }, (_, index) => `i${index}`), minRbo: 0.9 } })).toBe(40)
    expect(TestCaseSchema.safeParse({ name: 't', query: 'q', expect: { contains: [{ id: 'a', within: 101 }] } }).error!.issues[0]!.path).toEqual(['expect', 'contains', 0, 'within'])
  })

  it('keeps a snapshot\'s names beside its ids, one each, and reads files written without them', () => {
    const parse = (snapshot: unknown) => TestCaseSchema.safeParse({ name: 't', query: 'q', expect: { snapshot } })
    expect(parse({ ids: ['a', 'b'], minRbo: 0.9 }).success).toBe(true)
    expect(parse({ ids: ['a', 'b'], names: ['A', ''], minRbo: 0.9 }).success).toBe(true)
    const short = parse({ ids: ['a', 'b'], names: ['A'] })
    expect(short.success).toBe(false)
    expect(short.error!.issues[0]).toMatchObject({ path: ['expect', 'snapshot', 'names'], message: expect.stringContaining('one name per id') })
  })

  it('a case names a saved query or has its own request, not both or neither', () => {
    expect(TestCaseSchema.safeParse({ name: 't', query: 'q', expect: {} }).success).toBe(true)
    expect(TestCaseSchema.safeParse({ name: 't', expect: {} }).success).toBe(false)
    const snapshot = TestCaseSchema.parse({ name: 't', query: 'q', expect: { snapshot: { ids: ['a'] } } })
    expect(snapshot.expect.snapshot?.minRbo).toBe(0.9)
  })
})
