import { describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import type { QueryReply } from '../../src/shared/query/query-reply'
import { caseRequest, failedOutcome, outcomeOf, rankingRequest, serverMessage } from '../../src/shared/test-cases/case-request'
import { search } from '../fixtures/search-request'

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

const city = (id: string, name: string, rank: number) => ({ rank, probability: 0.5, tuple: [{ id, class: ['city'], attributes: { name } }] })
const reply = (body: unknown, status = 200): QueryReply => ({
  url: 'http://127.0.0.1/query/4/world/api/places/search/results',
  status,
  contentType: 'application/json',
  bytes: 100,
  body,
  timings: { connectMs: 1, firstByteMs: 2, totalMs: 3 },
  cached: false,
})

describe('what the expectations judge', () => {
  it('reads a results page: the items\' keys and names, best first, and the first item', () => {
    const sanaa = city('71137', 'Sanaa', 1)
    const outcome = outcomeOf(reply({ items: [sanaa, city('3167796', 'San Potito Sannitico', 2)] }), 12)
    expect(outcome).toEqual({
      status: 200,
      message: null,
      total: null,
      keys: ['71137', '3167796'],
      labels: ['Sanaa', 'San Potito Sannitico'],
      firstItem: sanaa,
      durationMs: 12,
    })
  })

  it('reads results,count as the page and its total, and an answer without items as none', () => {
    expect(outcomeOf(reply([{ items: [city('1', 'A', 1)] }, { total: 5628 }]), 1)).toMatchObject({ total: 5628, keys: ['1'] })
    expect(outcomeOf(reply([{ items: [] }, { total: 'many' }]), 1)).toMatchObject({ total: null, keys: [], firstItem: null })
    expect(outcomeOf(reply(null), 1)).toMatchObject({ keys: [], labels: [], firstItem: null })
  })

  it("keeps the service's own words of a failure, without the app's prefix", () => {
    expect(serverMessage('The service answered 400: no endpoint "nope" in api places')).toBe('no endpoint "nope" in api places')
    expect(serverMessage('Could not connect to 127.0.0.1:9')).toBe('Could not connect to 127.0.0.1:9')
    expect(failedOutcome(503, 'The service answered 503: Service busy', 40)).toEqual({
      status: 503,
      message: 'Service busy',
      total: null,
      keys: [],
      labels: [],
      firstItem: null,
      durationMs: 40,
    })
  })
})
