import { describe, expect, it } from 'vitest'
import { FacetDeclarationSchema, facetDeclarationProblems, type FacetDeclaration } from '../../src/shared/query/facet-declaration'

/**
 * A facet declared by hand, as the official TypeScript client's
 * `FacetedSearch.addFacet` declares it: the schema's defaults, and the rules
 * the form and a workspace file from elsewhere share, each problem naming its
 * field.
 */

/** addFacet('genre'): every default. */
const genre: FacetDeclaration = { options: 'genre', selection: 'single', resetOnSearchChange: true }
/** addFacet('director', multiple, false, ':F', 'who') */
const director: FacetDeclaration = { options: 'director', filter: 'director:F', parameter: 'who', selection: 'multiple', resetOnSearchChange: false }

describe('FacetDeclarationSchema', () => {
  it("takes the client's defaults for what it leaves out: single selection, reset when the search changes", () => {
    expect(FacetDeclarationSchema.parse({ options: 'genre' })).toEqual(genre)
    expect(FacetDeclarationSchema.parse(director)).toEqual(director)
  })

  it('refuses an unknown field, an empty or over-long name and an unknown selection', () => {
    for (const bad of [{ options: 'genre', reset: true }, { options: '' }, { options: 'g'.repeat(501) }, { options: 'genre', parameter: '' }, { options: 'genre', selection: 'many' }]) {
      expect(FacetDeclarationSchema.safeParse(bad).success).toBe(false)
    }
    expect(FacetDeclarationSchema.safeParse({ options: 'g'.repeat(500) }).success).toBe(true)
  })
})

describe('declaration rules (the form and a file alike)', () => {
  const problems = (all: Partial<FacetDeclaration>[], index = all.length - 1) => facetDeclarationProblems(all as FacetDeclaration[], index)

  it('takes what the client takes', () => {
    expect(problems([genre, director, { options: 'year', filter: 'year_between', parameter: 'range' }])).toEqual([])
  })

  it('names the field and the rule', () => {
    expect(problems([{ options: ' ' }])).toEqual([{ field: 'options', message: 'is empty' }])
    expect(problems([{ options: 'genre ' }])).toEqual([{ field: 'options', message: 'has spaces at its start or end' }])
    expect(problems([{ options: 'gen\nre' }])).toEqual([{ field: 'options', message: 'holds a control character, which no endpoint or parameter name has' }])
    expect(problems([{ options: 'genre', filter: '..' }])).toEqual([{ field: 'filter', message: '".." cannot be sent: URL normalisation removes "." and ".." path segments' }])
    expect(problems([{ options: 'genre', parameter: '\u0000' }])).toEqual([{ field: 'parameter', message: 'holds a control character, which no endpoint or parameter name has' }])
    expect(problems([{ options: 'genre', filter: 'genre' }])).toEqual([
      { field: 'filter', message: 'is the options endpoint itself; the filter is its partner endpoint (by default the options endpoint + ":FILTER")' },
    ])
  })

  it('refuses a facet, or a filter endpoint, declared twice', () => {
    expect(problems([genre, { options: 'genre', selection: 'multiple' }])).toEqual([{ field: 'options', message: 'the facet "genre" is declared already' }])
    expect(problems([genre, { options: 'kind', filter: 'genre:FILTER' }])).toEqual([{ field: 'filter', message: '"genre:FILTER" is the filter of another declared facet already' }])
    // The first of the two is fine: the message goes to the one that repeats.
    expect(problems([genre, { options: 'genre' }], 0)).toEqual([])
  })

  it('refuses a name no URL can carry: a lone surrogate, or "." alone', () => {
    expect(problems([{ options: 'genre\uD800' }])).toEqual([{ field: 'options', message: 'holds an unpaired surrogate, which cannot be sent in a URL' }])
    expect(problems([{ options: '.' }])).toEqual([{ field: 'options', message: '"." cannot be sent: URL normalisation removes "." and ".." path segments' }])
    // A pair is a letter like any other (𝔊).
    expect(problems([{ options: '\uD835\uDD0A' }])).toEqual([])
  })
})
