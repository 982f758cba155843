import { describe, expect, it } from 'vitest'
import { caseNameHint, searchTextOf, uniqueCaseName } from '../../src/shared/test-cases/case-name'
import { caseRequest, rankingRequest } from '../../src/shared/test-cases/case-request'
import { expectationsFromAnswer, expectationsFromError, messagePrefix, snapshotDepth, withSnapshot } from '../../src/shared/test-cases/derive-expectations'
import { evaluate, type RunOutcome } from '../../src/shared/test-cases/evaluate'
import { targetText } from '../../src/shared/test-cases/target-text'
import { depthNeeded, ExpectationsSchema, needsTotal } from '../../src/shared/test-cases/test-case'
import type { QueryRequest } from '../../src/shared/query/model'

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

const search = (query: string, extra: Partial<QueryRequest> = {}): QueryRequest => ({
  workspace: 'world',
  api: 'places',
  steps: [{ endpoint: 'search', parameters: { query } }],
  responseType: 'results',
  options: { config: 'default', count: 25, offset: 50, format: 'csv' },
  ...extra,
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

describe('names of new cases', () => {
  it('come from the text searched for, else a parameter, else the endpoint or the saved query', () => {
    expect(searchTextOf(search('  san '))).toBe('san')
    expect(searchTextOf({ ...search(''), steps: [{ endpoint: 'city', parameters: { id: '2988507' } }] })).toBe('2988507')
    expect(searchTextOf({ ...search(''), steps: [{ context: { a: 'b' } }, { endpoint: 'countries', parameters: {} }] })).toBe('countries')
    expect(
      searchTextOf({ ...search(''), steps: [{ endpoint: 'country:FILTER', parameters: { value: '1("ES")' } }, { endpoint: 'search', parameters: { query: 'port' } }] }),
    ).toBe('port')
    expect(caseNameHint({ ...search(''), steps: [] }, 'Saved one')).toBe('Saved one')
    expect(caseNameHint({ ...search(''), steps: [] })).toBe('New test')
  })

  it('are made unique: "san", then "san (2)", within 200 characters, without control characters', () => {
    const taken = new Set(['san', 'san (2)'])
    expect(uniqueCaseName('san', (name) => taken.has(name))).toBe('san (3)')
    expect(uniqueCaseName('tokyo', (name) => taken.has(name))).toBe('tokyo')
    expect(uniqueCaseName('a\nb\tc', () => false)).toBe('a b c')
    const long = 'x'.repeat(300)
    const first = uniqueCaseName(long, () => false)
    expect(first).toHaveLength(200)
    const second = uniqueCaseName(long, (name) => name === first)
    expect(second).toHaveLength(200)
    expect(second.endsWith(' (2)')).toBe(true)
    expect(uniqueCaseName('   ', () => false)).toBe('New test')
  })
})

describe('the request a case or a comparison side sends', () => {
  it('asks the top `depth` from the first result in JSON, with the total when asked, on the target', () => {
    const request = { ...search('san'), responseType: 'options' as const, facet: 'country' }
    const asked = rankingRequest(request, { depth: 50, total: true }, { config: 'production', api: 'places2', version: '2' })
    expect(asked).toEqual({ workspace: 'world', api: 'places2', version: '2', steps: request.steps, responseType: 'results,count', options: { config: 'production', count: 50 } })
    expect(request.options.offset).toBe(50)
    expect(caseRequest(search('san'), { contains: [{ id: 'x', within: 17 }] })).toEqual(rankingRequest(search('san'), { depth: 17, total: false }))
    // A case that ranks an item looks at the top 10 at least, to say where a missed item was.
    expect(caseRequest(search('san'), { contains: [{ id: 'x', within: 7 }] })).toEqual(rankingRequest(search('san'), { depth: 10, total: false }))
  })

  it('names its target in words', () => {
    expect(targetText('Demo', { config: 'production' })).toBe('Demo, config production')
    expect(targetText('Demo', {})).toBe('Demo')
    expect(targetText('Staging', { api: 'places', config: 'a', version: '2' }, ' · ')).toBe('Staging · API places · config a · version 2')
  })
})

describe('requests moved to another target', () => {
  it("ask the target connection's workspace, API, config and version", () => {
    const request: QueryRequest = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'options', facet: 'country', options: { offset: 20, format: 'csv' } }
    const moved = rankingRequest(request, { depth: 10, total: true }, { workspace: 'staging-world', api: 'places2', config: 'production', version: '4' })
    expect(moved).toEqual({
      workspace: 'staging-world',
      api: 'places2',
      version: '4',
      steps: request.steps,
      responseType: 'results,count',
      options: { config: 'production', count: 10 },
    })
    expect(caseRequest(request, {}).workspace).toBe('world')
  })
})
