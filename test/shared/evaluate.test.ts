import { describe, expect, it } from 'vitest'
import { evaluate, fieldOf, type RunOutcome } from '../../src/shared/test-cases/evaluate'
import type { Expectations } from '../../src/shared/test-cases/test-case'

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

  it('names the item a ranking check is about, and says the rank it was found at or how deep it was looked for', () => {
    const ten = outcome({ keys: ['71137', 'b', 'c', '3167796', 'e', 'f', 'g', 'h', 'i', 'j'], labels: ['Sanaa', 'b', 'C', 'San Potito Sannitico', 'E', 'F', 'G', 'H', 'I', 'J'] })
    const failed = (expectations: Expectations, run = ten) => evaluate(expectations, run).filter((check) => !check.passed)
    expect(failed({ rankAtMost: [{ id: '3167796', rank: 1 }] })).toEqual([
      expect.objectContaining({ item: 'San Potito Sannitico (3167796)', what: 'San Potito Sannitico (3167796) at rank 1 or better', expected: 'at rank 1 or better', actual: 'found at rank 4' }),
    ])
    expect(failed({ contains: [{ id: 'gone', within: 3 }] })).toEqual([expect.objectContaining({ item: 'gone', expected: 'in the first 3', actual: 'not in the first 10' })])
    expect(failed({ contains: [{ id: 'c', within: 1 }] })[0]).toMatchObject({ item: 'C (c)', expected: 'at rank 1', actual: 'found at rank 3' })
    // A label that is only the key is no name.
    expect(failed({ absent: [{ id: 'b', within: 5 }] })[0]).toMatchObject({ item: 'b', expected: 'not in the first 5', actual: 'found at rank 2' })
    // Fewer results than asked for is all the service has.
    expect(failed({ rankAtMost: [{ id: 'x', rank: 2 }] }, outcome())[0]!.actual).toBe('not among the 4 results')
    expect(failed({ rankAtMost: [{ id: 'x', rank: 2 }] }, outcome({ keys: [], labels: [] }))[0]!.actual).toBe('not found: the answer had no results')
  })

  it('names an item this run no longer returns by the name its snapshot recorded, and this run\'s names win', () => {
    const snapshot = { ids: ['3167796', 'b', 'c'], names: ['San Potito Sannitico', 'Old B', ''], minRbo: 0.9 }
    const checks = evaluate({ rankAtMost: [{ id: '3167796', rank: 1 }], snapshot }, outcome())
    expect(checks[1]).toMatchObject({ item: 'San Potito Sannitico (3167796)', actual: 'not among the 4 results' })
    expect(checks[2]!.labels).toEqual({ '3167796': 'San Potito Sannitico', b: 'B', c: 'C', '71137': 'Sanaa' })
  })
})
