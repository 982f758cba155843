import { describe, expect, it } from 'vitest'
import { expectationsFromAnswer, expectationsFromError, messagePrefix, snapshotDepth, withSnapshot } from '../../src/shared/test-cases/derive-expectations'
import { evaluate, type RunOutcome } from '../../src/shared/test-cases/evaluate'
import { depthNeeded, ExpectationsSchema, needsTotal } from '../../src/shared/test-cases/test-case'

const keys = ['71137', '1257416', '1796556', '3168305', '1734052', '298333', '1957691', '117574', '3167796', '1796663', 'extra']

const outcome = (overrides: Partial<RunOutcome> = {}): RunOutcome => ({
  status: 200,
  message: null,
  total: 5628,
  keys,
  labels: keys.map((key) => `City ${key}`),
  firstItem: null,
  durationMs: 12,
  ...overrides,
})

describe('expectations derived from a run', () => {
  it('take the status, the total as a floor, the first item within the top 3 and a snapshot of the top 10', () => {
    const expect_ = expectationsFromAnswer(outcome())
    expect(expect_).toEqual({
      status: 200,
      totalAtLeast: 5628,
      contains: [{ id: '71137', within: 3 }],
      snapshot: { ids: keys.slice(0, 10), names: keys.slice(0, 10).map((key) => `City ${key}`), minRbo: 0.9 },
    })
    expect(ExpectationsSchema.parse(expect_)).toEqual(expect_)
    // What the case then asks is what was asked to derive it: the top 10 with the total…
    expect(depthNeeded(expect_)).toBe(10)
    expect(needsTotal(expect_)).toBe(true)
    // …and the same answer passes every check.
    expect(evaluate(expect_, outcome()).every((check) => check.passed)).toBe(true)
  })

  it('expect a total of at least 0 and no ranking when nothing was found or there is no total', () => {
    expect(expectationsFromAnswer(outcome({ keys: [], labels: [], total: 0 }))).toEqual({ status: 200, totalAtLeast: 0 })
    expect(expectationsFromAnswer(outcome({ total: null })).totalAtLeast).toBe(0)
    // A key too long to be written in a file leaves the ranking out rather than making a file no one can open.
    expect(expectationsFromAnswer(outcome({ keys: ['x'.repeat(2_001)] }))).toEqual({ status: 200, totalAtLeast: 5628 })
  })

  it('expect a refusal as its status and the start of its message, cut at a word', () => {
    const refused = expectationsFromError(400, 'no endpoint "nope" in api places')
    expect(refused).toEqual({ status: 400, messageStartsWith: 'no endpoint "nope" in api places' })
    expect(evaluate(refused, outcome({ status: 400, message: 'no endpoint "nope" in api places', keys: [] })).every((check) => check.passed)).toBe(true)
    const long = 'The chain could not be read: the parameter value of step 3 is longer than the service allows for a value'
    const prefix = messagePrefix(long)
    expect(long.startsWith(prefix)).toBe(true)
    expect(prefix.length).toBeLessThanOrEqual(60)
    expect(prefix).toBe('The chain could not be read: the parameter value of step 3')
    expect(expectationsFromError(503, '   ')).toEqual({ status: 503 })
    expect(messagePrefix('x'.repeat(100))).toBe('x'.repeat(60))
  })

  it('record a snapshot as deep as the one it replaces, keeping its threshold, or the top 10 when there was none', () => {
    const recorded = { ids: ['a', 'b', 'c'], minRbo: 0.75 }
    expect(withSnapshot({ snapshot: recorded, totalAtLeast: 1 }, keys)).toEqual({ totalAtLeast: 1, snapshot: { ids: keys.slice(0, 3), minRbo: 0.75 } })
    expect(withSnapshot({ status: 200 }, keys)).toEqual({ status: 200, snapshot: { ids: keys.slice(0, 10), minRbo: 0.9 } })
    expect(withSnapshot({ snapshot: recorded }, ['only'])!.snapshot!.ids).toEqual(['only'])
    expect(withSnapshot({}, [])).toBeNull()
    expect(snapshotDepth({ snapshot: recorded })).toBe(3)
    expect(snapshotDepth({})).toBe(10)
  })

  it('keep each recorded item\'s name beside its id, so a later failure can name an item no longer returned', () => {
    const recorded = { ids: ['a', 'b'], names: ['Old A', 'Old B'], minRbo: 0.8 }
    expect(withSnapshot({ snapshot: recorded }, ['71137', '3167796', 'x'], ['Sanaa', 'San Potito Sannitico', 'x'])).toEqual({
      snapshot: { ids: ['71137', '3167796'], names: ['Sanaa', 'San Potito Sannitico'], minRbo: 0.8 },
    })
    // A label that is only its key is no name; with no name at all, there are no names.
    expect(withSnapshot({}, ['71137', 'x'], ['Sanaa', 'x'])!.snapshot).toEqual({ ids: ['71137', 'x'], names: ['Sanaa', ''], minRbo: 0.9 })
    expect(withSnapshot({ snapshot: recorded }, ['x', 'y'], ['x', 'y'])!.snapshot).toEqual({ ids: ['x', 'y'], minRbo: 0.8 })
  })
})
