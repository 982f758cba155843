import { describe, expect, it } from 'vitest'
import { withFacetSelection, type EditorStep } from '../../src/shared/chain/editor-chain'
import type { FacetDeclaration } from '../../src/shared/query/facet-declaration'
import {
  describedFacets,
  facetFilterChain,
  facetOptionsChain,
  facetOptionsRequest,
  facetSelectedIds,
  facetSelection,
  facetSpec,
  facetSpecs,
  searchKey,
  withoutResetFilters,
} from '../../src/shared/query/facets'
import type { QueryRequest, Step } from '../../src/shared/query/model'
import { buildUrl } from '../../src/shared/query/url'

/**
 * Facets declared by hand, as the official TypeScript client's
 * `FacetedSearch.addFacet(endpoint, type = single, resetOnQueryChange = true,
 * filterEndpointPostfix = ':FILTER', filterEndpointParameterName = 'value')`
 * declares them, going through the same helpers as the described ones.
 * Expected URLs are worked out by hand from the client's behaviour.
 */

const BASE = 'https://rest.example.com/'
const search: Step = { endpoint: 'movie_search', parameters: { query: 'heat' } }
const request: QueryRequest = { version: '4', workspace: 'films', api: 'movies', steps: [search], responseType: 'results', options: { config: 'default', count: 10 } }

/** addFacet('genre'): every default. */
const genre: FacetDeclaration = { options: 'genre', selection: 'single', resetOnSearchChange: true }
/** addFacet('director', multiple, false, ':F', 'who') */
const director: FacetDeclaration = { options: 'director', filter: 'director:F', parameter: 'who', selection: 'multiple', resetOnSearchChange: false }

describe('a declared facet', () => {
  it("takes the client's defaults for what it leaves out", () => {
    expect(facetSpec({ options: 'genre' })).toEqual({ options: 'genre', filter: 'genre:FILTER', parameter: 'value', selection: 'single', resetOnSearchChange: true })
    expect(facetSpec(director)).toEqual({ options: 'director', filter: 'director:F', parameter: 'who', selection: 'multiple', resetOnSearchChange: false })
    // A described facet (a name): the seed's convention, tuple lists, kept across searches as before.
    expect(facetSpec('country')).toEqual({ options: 'country', filter: 'country:FILTER', parameter: 'value', selection: 'multiple', resetOnSearchChange: false })
  })

  it('lists its options on the chain, its own filter left out and the others kept', () => {
    const filtered = facetFilterChain(facetFilterChain(request, genre, ['Drama']), director, ['Mann'])
    const options = facetOptionsChain(filtered, genre)
    expect(buildUrl(BASE, options)).toBe(
      'https://rest.example.com/4/films/api/movies/e/movie_search/p/query/heat/e/director%3AF/p/who/1(%22Mann%22)/e/genre/results?config=default&count=10',
    )
    expect(buildUrl(BASE, facetOptionsChain(filtered, director))).toBe(
      'https://rest.example.com/4/films/api/movies/e/movie_search/p/query/heat/e/genre:FILTER/p/value/Drama/e/director/results?config=default&count=10',
    )
    expect(facetOptionsRequest(filtered, director, true)).toMatchObject({ responseType: 'options', facet: 'director', steps: [search, filtered.steps[1]] })
    // A deployment's own option goes with the options request too; the page options do not.
    const dev = { ...filtered, options: { config: 'default', count: 25, extra: { dev_version: 'master' } } }
    expect(facetOptionsRequest(dev, director).options).toEqual({ config: 'default', extra: { dev_version: 'master' } })
  })

  it('writes a single selection as the bare option id, as the client does', () => {
    const filtered = facetFilterChain(request, genre, ['https://imdb.com/data/Drama'])
    expect(filtered.steps[1]).toEqual({ endpoint: 'genre:FILTER', parameters: { value: 'https://imdb.com/data/Drama' } })
    expect(buildUrl(BASE, filtered)).toBe(
      'https://rest.example.com/4/films/api/movies/e/movie_search/p/query/heat/e/genre:FILTER/p/value/https%3A%2F%2Fimdb.com%2Fdata%2FDrama/results?config=default&count=10',
    )
    // Choosing another option replaces it in its place; a single facet keeps one option.
    expect(facetFilterChain(filtered, genre, ['Crime', 'Drama']).steps).toEqual([search, { endpoint: 'genre:FILTER', parameters: { value: 'Crime' } }])
    // An id that would read back as tuple notation goes quoted, which the service takes the same.
    expect(facetFilterChain([search], genre, ['Crime (1995)'])[1]).toEqual({ endpoint: 'genre:FILTER', parameters: { value: '1("Crime (1995)")' } })
  })

  it("writes several options as the seed's quoted tuple list, with its own filter and parameter", () => {
    const filtered = facetFilterChain([search], director, ['Mann', { score: 0.5, values: ['Nolan'] }])
    expect(filtered[1]).toEqual({ endpoint: 'director:F', parameters: { who: '1("Mann")|0.5("Nolan")' } })
    expect(facetFilterChain(filtered, director, [])).toEqual([search])
  })

  it('reads a selection back in every form the clients write', () => {
    const read = (value: string, facet: FacetDeclaration = genre) => facetSelectedIds([search, { endpoint: facet.filter ?? `${facet.options}:FILTER`, parameters: { [facet.parameter ?? 'value']: value } }], facet)
    expect(read('Drama')).toEqual(['Drama'])
    expect(read('1("Drama")')).toEqual(['Drama'])
    expect(read('1(Drama)|1(Crime)', director)).toEqual(['Drama', 'Crime'])
    expect(read('1("a \\"b\\"")|0.5(c)', director)).toEqual(['a "b"', 'c'])
    // The client writes any single id bare, parentheses and all: one option, not broken tuple notation.
    expect(read('Crime (1995')).toEqual(['Crime (1995'])
    expect(read('Crime (1995', director)).toEqual([])
    // Another facet's filter, or the right endpoint with another parameter, is not this facet's selection.
    expect(facetSelection([search, { endpoint: 'genre:FILTER', parameters: { other: 'Drama' } }], genre)).toEqual([])
    expect(facetSelection([search, { endpoint: 'director:FILTER', parameters: { value: 'Mann' } }], director)).toEqual([])
  })

  it('goes into the editor chain through the same path, keeping the replaced card', () => {
    let n = 0
    const newId = () => `new-${++n}`
    const chain: EditorStep[] = [
      { id: 'a', enabled: true, step: search },
      { id: 'b', enabled: true, step: { endpoint: 'director:F', parameters: { who: '1("Mann")' } } },
    ]
    const picked = withFacetSelection(chain, director, ['Mann', 'Nolan'], newId)
    expect(picked).toEqual([chain[0], { id: 'b', enabled: true, step: { endpoint: 'director:F', parameters: { who: '1("Mann")|1("Nolan")' } } }])
    expect(withFacetSelection(picked, genre, ['Drama'], newId)[2]).toEqual({ id: 'new-1', enabled: true, step: { endpoint: 'genre:FILTER', parameters: { value: 'Drama' } } })
  })
})

describe('described and declared facets together', () => {
  const description = {
    workspace: 'world', api: 'places', public: false, configs: ['default'],
    endpoints: [
      { name: 'search', kind: 'search' as const, stackable: false, parameters: [], output: ['OBJ' as const] },
      { name: 'country', kind: 'facet-options' as const, stackable: true, parameters: [], output: ['OBJ' as const] },
      { name: 'country:FILTER', kind: 'facet-filter' as const, stackable: true, parameters: [], output: ['OBJ' as const] },
      { name: 'region', kind: 'facet-options' as const, stackable: true, parameters: [], output: ['OBJ' as const] },
    ],
  }

  it('takes a facet from the description only with its :FILTER partner', () => {
    expect(describedFacets(description)).toEqual(['country'])
    expect(describedFacets(null)).toEqual([])
  })

  it('lists the described ones, then the declared; a declaration of a described facet replaces it in its place', () => {
    const specs = facetSpecs(['country', 'city'], [{ options: 'region' }, { options: 'city', selection: 'multiple' }])
    expect(specs.map((spec) => [spec.options, spec.selection])).toEqual([
      ['country', 'multiple'],
      ['city', 'multiple'],
      ['region', 'single'],
    ])
    expect(specs[1]!.resetOnSearchChange).toBe(true)
  })
})

describe('reset on search change', () => {
  const filtered = facetFilterChain(facetFilterChain(facetFilterChain([search], genre, ['Drama']), director, ['Mann']), 'country', ['FR'])

  it("drops the filters of the facets that reset, as the client's setParameter does, and keeps the rest", () => {
    expect(withoutResetFilters(filtered, [genre, director, 'country'])).toEqual([
      search,
      { endpoint: 'director:F', parameters: { who: '1("Mann")' } },
      { endpoint: 'country:FILTER', parameters: { value: '1("FR")' } },
    ])
    expect(withoutResetFilters(filtered, [])).toEqual(filtered)
  })

  it('never drops the search step itself, even one named like a filter', () => {
    const odd: Step[] = [{ endpoint: 'genre:FILTER', parameters: { value: 'x' } }, search]
    expect(withoutResetFilters(odd, [genre])).toEqual(odd)
  })

  it('sees a change of the search, not of the filters after it', () => {
    expect(searchKey(filtered)).toBe(searchKey([search]))
    expect(searchKey([{ ...search, parameters: { query: 'heath' } }])).not.toBe(searchKey([search]))
    expect(searchKey([{ ...search, endpoint: 'person_search' }])).not.toBe(searchKey([search]))
    expect(searchKey([{ context: { lang: 'en' } }])).toBe('')
  })
})
