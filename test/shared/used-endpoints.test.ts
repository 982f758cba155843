import { describe, expect, it } from 'vitest'
import type { QueryRequest, Step } from '../../src/shared/query/model'
import { usedEndpointNames } from '../../src/shared/workspace/used-endpoints'

/** The endpoint names an API has been used with, which the Endpoint box offers where no description lists them. */

const search: Step = { endpoint: 'movie_search', parameters: { query: 'heat' } }

describe('endpoint names remembered from use', () => {
  it("gives the endpoint names of this API's requests, sorted, each once, with an options request's facet", () => {
    const requests: Pick<QueryRequest, 'api' | 'steps' | 'facet'>[] = [
      { api: 'movies', steps: [search, { endpoint: 'genre:FILTER', parameters: { value: 'Drama' } }] },
      { api: 'movies', steps: [search, { context: { lang: 'en' } }], facet: 'genre' },
      { api: 'people', steps: [{ endpoint: 'person_search', parameters: {} }] },
      { api: 'movies', steps: [{ endpoint: '', parameters: {} }] },
    ]
    expect(usedEndpointNames(requests, 'movies')).toEqual(['genre', 'genre:FILTER', 'movie_search'])
    expect(usedEndpointNames(requests, 'people')).toEqual(['person_search'])
    expect(usedEndpointNames(requests, 'other')).toEqual([])
  })

  it('leaves out a name of white space alone, keeps names apart by case, and nothing used is no names', () => {
    const requests: Pick<QueryRequest, 'api' | 'steps' | 'facet'>[] = [{ api: 'a', steps: [{ endpoint: '  ', parameters: {} }, { endpoint: 'Genre', parameters: {} }, { endpoint: 'genre', parameters: {} }] }]
    expect(usedEndpointNames(requests, 'a')).toHaveLength(2)
    expect(usedEndpointNames(requests, 'a')).toEqual(expect.arrayContaining(['Genre', 'genre']))
    expect(usedEndpointNames([], 'a')).toEqual([])
  })
})
