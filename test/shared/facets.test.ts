import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { facetFilterChain, facetOptionsChain, facetSelectedIds, facetSelection } from '../../src/shared/query/facets'
import type { QueryRequest, Step } from '../../src/shared/query/model'
import { buildUrl } from '../../src/shared/query/url'
import { normalSteps, tuple } from './arbitraries'

const search: Step = { endpoint: 'search', parameters: { query: 'paris' } }
const request: QueryRequest = { workspace: 'world', api: 'places', steps: [search], responseType: 'results', options: { count: 10 } }
const BASE = 'https://q.example.com'

describe('facet options', () => {
  it('stacks the options endpoint on the search chain (seed rule 5)', () => {
    const options = facetOptionsChain(request, 'country')
    expect(options.steps).toEqual([search, { endpoint: 'country', parameters: {} }])
    expect(buildUrl(BASE, options)).toBe('https://q.example.com/world/api/places/e/search/p/query/paris/e/country/results?count=10')
  })

  it('takes steps and gives steps', () => {
    expect(facetOptionsChain([search], 'country')).toEqual([search, { endpoint: 'country', parameters: {} }])
  })

  it("leaves out the facet's own filter but keeps the other facets' filters", () => {
    const filtered = facetFilterChain(facetFilterChain([search], 'country', ['FR']), 'region', ['Europe'])
    expect(facetOptionsChain(filtered, 'country')).toEqual([
      search,
      { endpoint: 'region:FILTER', parameters: { value: '1("Europe")' } },
      { endpoint: 'country', parameters: {} },
    ])
  })

  it('does not change its input', () => {
    const steps = [search]
    facetOptionsChain(steps, 'country')
    facetFilterChain(request, 'country', ['FR'])
    expect(steps).toEqual([search])
    expect(request.steps).toEqual([search])
  })
})

describe('facet filter', () => {
  it('filters by one selected option: :FILTER with value in tuple notation', () => {
    const filtered = facetFilterChain(request, 'country', ['https://ex.org/US'])
    expect(filtered.steps).toEqual([search, { endpoint: 'country:FILTER', parameters: { value: '1("https://ex.org/US")' } }])
    expect(filtered.options).toEqual(request.options)
    expect(buildUrl(BASE, filtered)).toBe(
      'https://q.example.com/world/api/places/e/search/p/query/paris/e/country:FILTER/p/value/1(%22https%3A%2F%2Fex.org%2FUS%22)/results?count=10',
    )
  })

  it('filters by several selected options, ids or whole tuples', () => {
    const filtered = facetFilterChain([search], 'continent', ['https://ex.org/Europe', { score: 0.5, values: ['https://ex.org/Asia'] }])
    expect(filtered[1]).toEqual({ endpoint: 'continent:FILTER', parameters: { value: '1("https://ex.org/Europe")|0.5("https://ex.org/Asia")' } })
  })

  it('replaces an existing filter of the facet where it stands instead of stacking a second', () => {
    const sort: Step = { endpoint: 'sort', parameters: { by: 'name' } }
    const once = facetFilterChain([search, sort], 'country', ['FR'])
    expect(once).toEqual([search, sort, { endpoint: 'country:FILTER', parameters: { value: '1("FR")' } }])
    const moved = [search, { endpoint: 'country:FILTER', parameters: { value: '1("FR")' } }, sort]
    expect(facetFilterChain(moved, 'country', ['FR', 'DE'])).toEqual([
      search,
      { endpoint: 'country:FILTER', parameters: { value: '1("FR")|1("DE")' } },
      sort,
    ])
  })

  it('leaves one filter when the chain held the facet filter twice', () => {
    const twice: Step[] = [search, { endpoint: 'country:FILTER', parameters: { value: '1("FR")' } }, { endpoint: 'country:FILTER', parameters: { value: '1("DE")' } }]
    expect(facetFilterChain(twice, 'country', ['IT'])).toEqual([search, { endpoint: 'country:FILTER', parameters: { value: '1("IT")' } }])
  })

  it('removes the filter when nothing is selected', () => {
    const filtered = facetFilterChain(request, 'country', ['FR'])
    expect(facetFilterChain(filtered, 'country', [])).toEqual(request)
    expect(facetFilterChain([search], 'country', [])).toEqual([search])
  })

  it('does not touch the filters of other facets', () => {
    const both = facetFilterChain(facetFilterChain([search], 'country', ['FR']), 'region', ['Europe'])
    expect(facetFilterChain(both, 'region', [])).toEqual([search, { endpoint: 'country:FILTER', parameters: { value: '1("FR")' } }])
  })

  it('reads the selection back', () => {
    const filtered = facetFilterChain([search], 'country', ['FR', { score: 0.5, values: ['DE', 2] }])
    expect(facetSelection(filtered, 'country')).toEqual([
      { score: 1, values: ['FR'] },
      { score: 0.5, values: ['DE', 2] },
    ])
    expect(facetSelectedIds(filtered, 'country')).toEqual(['FR', 'DE'])
    expect(facetSelection(filtered, 'region')).toEqual([])
    expect(facetSelection([{ endpoint: 'country:FILTER', parameters: { value: 'not (tuples' } }], 'country')).toEqual([])
  })

  it('reads a bare option id, as the client libraries write a single selection, as that option selected', () => {
    const pasted: Step[] = [search, { endpoint: 'country:FILTER', parameters: { value: 'ES' } }]
    expect(facetSelection(pasted, 'country')).toEqual([{ score: 1, values: ['ES'] }])
    expect(facetSelectedIds(pasted, 'country')).toEqual(['ES'])
    // An id is taken exactly as written: a URI, with its colon and slashes, or digits stay text.
    expect(facetSelectedIds([{ endpoint: 'genre:FILTER', parameters: { value: 'https://imdb.com/data/Drama' } }], 'genre')).toEqual(['https://imdb.com/data/Drama'])
    expect(facetSelection([{ endpoint: 'year:FILTER', parameters: { value: '1999' } }], 'year')).toEqual([{ score: 1, values: ['1999'] }])
    expect(facetSelection([{ endpoint: 'year:FILTER', parameters: { value: '  ' } }], 'year')).toEqual([])
  })

  it('gives back any selection on any chain, with exactly one filter of the facet', () => {
    fc.assert(
      fc.property(normalSteps, fc.array(tuple, { minLength: 1, maxLength: 4 }), (steps, selected) => {
        const filtered = facetFilterChain(steps, 'facet', selected)
        expect(facetSelection(filtered, 'facet')).toEqual(selected)
        expect(filtered.filter((step) => 'endpoint' in step && step.endpoint === 'facet:FILTER')).toHaveLength(1)
        expect(facetFilterChain(filtered, 'facet', selected)).toEqual(filtered)
      }),
      { numRuns: 500 },
    )
  })
})
