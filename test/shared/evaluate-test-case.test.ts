import { describe, expect, it } from 'vitest'
import { evaluate, fieldOf, type RunOutcome } from '../../src/shared/test-cases/evaluate'
import { depthNeeded, TestCaseSchema, type Expectations } from '../../src/shared/test-cases/test-case'

const sanaa = { rank: 1, probability: 0.9, tuple: [{ id: '71137', class: ['city'], attributes: { name: 'Sanaa', population: 1937451, country: { id: 'YE', name: 'Yemen' } } }] }

const outcome = (overrides: Partial<RunOutcome> = {}): RunOutcome => ({
  status: 200,
  message: null,
  total: 120,
  keys: ['71137', 'b', 'c', 'd'],
  labels: ['Sanaa', 'B', 'C', 'D'],
  firstItem: sanaa,
  durationMs: 40,
  ...overrides,
})

/** Each expectation alone, with a run that passes it and one that fails it. */
const CASES: { expect: Expectations; pass: Partial<RunOutcome>; fail: Partial<RunOutcome>; failText: RegExp }[] = [
  { expect: { status: 200 }, pass: {}, fail: { status: 500, message: 'Internal error' }, failText: /500: Internal error/ },
  { expect: { status: 400, messageStartsWith: 'Unknown endpoint' }, pass: { status: 400, message: 'Unknown endpoint "x"' }, fail: { status: 400, message: 'Bad option' }, failText: /Bad option/ },
  { expect: { totalAtLeast: 100 }, pass: {}, fail: { total: 99 }, failText: /99/ },
  { expect: { totalAtMost: 200 }, pass: {}, fail: { total: 201 }, failText: /201/ },
  { expect: { contains: [{ id: 'c', within: 3 }] }, pass: {}, fail: { keys: ['a', 'b', 'x', 'c'] }, failText: /rank 4/ },
  { expect: { rankAtMost: [{ id: '71137', rank: 1 }] }, pass: {}, fail: { keys: ['b', '71137'] }, failText: /rank 2/ },
  { expect: { absent: [{ id: 'z', within: 4 }] }, pass: {}, fail: { keys: ['a', 'z'] }, failText: /rank 2/ },
  { expect: { firstItem: [{ field: 'name', equals: 'Sanaa' }] }, pass: {}, fail: { firstItem: { tuple: [{ id: 'x', class: [], attributes: { name: 'Santiago' } }] } }, failText: /Santiago/ },
  { expect: { durationAtMostMs: 100 }, pass: {}, fail: { durationMs: 250 }, failText: /250 ms/ },
  { expect: { snapshot: { ids: ['71137', 'b', 'c', 'd'], minRbo: 0.9 } }, pass: {}, fail: { keys: ['d', 'c', 'x', 'y'] }, failText: /RBO 0\.\d+/ },
]

describe('test case expectations', () => {
  for (const { expect: expectations, pass, fail, failText } of CASES) {
    const label = Object.keys(expectations).join(' + ')
    it(`${label}: passes when met, fails with expected vs actual when not`, () => {
      const passed = evaluate(expectations, outcome(pass))
      expect(passed.every((check) => check.passed), JSON.stringify(passed)).toBe(true)
      const failed = evaluate(expectations, outcome(fail))
      const bad = failed.filter((check) => !check.passed)
      expect(bad).toHaveLength(1)
      expect(`${bad[0]!.expected} / ${bad[0]!.actual}`).toMatch(failText)
    })
  }

  it('reports only the status when it differs: the other checks would judge no answer', () => {
    const checks = evaluate({ totalAtLeast: 1, contains: [{ id: 'a', within: 1 }] }, outcome({ status: null, message: 'connection refused', keys: [], total: null }))
    expect(checks).toEqual([expect.objectContaining({ what: 'status 200', passed: false, actual: 'no answer: connection refused' })])
  })

  it('gives a failed snapshot its rank diff', () => {
    const [, snapshot] = evaluate({ snapshot: { ids: ['a', 'b', 'c'], minRbo: 0.9 } }, outcome({ keys: ['c', 'b', 'a'] }))
    expect(snapshot!.passed).toBe(false)
    expect(snapshot!.changes?.map((row) => [row.key, row.rankA, row.rankB])).toEqual([
      ['a', 1, 3],
      ['b', 2, 2],
      ['c', 3, 1],
    ])
  })

  it('reads fields from the first column: id, class, attributes, nested objects, rank', () => {
    expect(fieldOf(sanaa, 'id')).toBe('71137')
    expect(fieldOf(sanaa, 'population')).toBe(1937451)
    expect(fieldOf(sanaa, 'country.name')).toBe('Yemen')
    expect(fieldOf(sanaa, 'rank')).toBe(1)
    expect(fieldOf(sanaa, 'nope')).toBeUndefined()
    expect(evaluate({ firstItem: [{ field: 'class', equals: 'city' }] }, outcome())[1]!.passed).toBe(true)
  })

  it('asks for as many results as the deepest expectation needs', () => {
    expect(depthNeeded({})).toBe(1)
    expect(depthNeeded({ contains: [{ id: 'a', within: 20 }], snapshot: { ids: ['a', 'b'], minRbo: 0.9 } })).toBe(20)
  })

  it('a case names a saved query or has its own request, not both or neither', () => {
    expect(TestCaseSchema.safeParse({ name: 't', query: 'q', expect: {} }).success).toBe(true)
    expect(TestCaseSchema.safeParse({ name: 't', expect: {} }).success).toBe(false)
    const snapshot = TestCaseSchema.parse({ name: 't', query: 'q', expect: { snapshot: { ids: ['a'] } } })
    expect(snapshot.expect.snapshot?.minRbo).toBe(0.9)
  })
})
