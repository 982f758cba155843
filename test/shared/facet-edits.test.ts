import { describe, expect, it } from 'vitest'
import type { FacetDeclaration } from '../../src/shared/query/facet-declaration'
import { withFacetDeclarations } from '../../src/shared/workspace/facet-edits'
import { refusal } from '../fixtures/failure-of'
import { sampleWorkspace } from '../fixtures/sample-workspace'

/** The facets declared by hand on one of the file's connections, replaced as a whole, or refused naming the facet and the field. */

const genre: FacetDeclaration = { options: 'genre', selection: 'single', resetOnSearchChange: true }
const director: FacetDeclaration = { options: 'director', filter: 'director:F', parameter: 'who', selection: 'multiple', resetOnSearchChange: false }

describe('facet declaration edits', () => {
  it('replaces the list on that connection alone, leaving the workspace it was given as it was', () => {
    const before = structuredClone(sampleWorkspace)
    const next = withFacetDeclarations(sampleWorkspace, 'demo', [genre, director])
    expect(next.connections[0]!.facets).toEqual([genre, director])
    expect(next.queries).toBe(sampleWorkspace.queries)
    expect(sampleWorkspace).toEqual(before)
    // An empty list removes the key, so the file does not gain an empty "facets".
    expect('facets' in withFacetDeclarations(next, 'demo', []).connections[0]!).toBe(false)
  })

  it('refuses an unknown connection as not found', () => {
    expect(refusal(() => withFacetDeclarations(sampleWorkspace, 'nowhere', [genre])).toIpc()).toEqual({ code: 'not_found', message: 'The workspace has no connection "nowhere".' })
  })

  it('refuses a broken declaration naming the facet, the field and the rule, field by field', () => {
    const error = refusal(() => withFacetDeclarations(sampleWorkspace, 'demo', [genre, { ...director, parameter: ' who' }, { ...genre, filter: 'x' }]))
    expect(error.code).toBe('validation')
    expect(error.toIpc().problems).toEqual([
      { field: 'facets[1].parameter', message: 'Facet "director", Parameter: has spaces at its start or end.' },
      { field: 'facets[2].options', message: 'Facet "genre", Options endpoint: the facet "genre" is declared already.' },
    ])
    expect(error.message).toBe('Facet "director", Parameter: has spaces at its start or end. Facet "genre", Options endpoint: the facet "genre" is declared already.')
  })

  it('refuses more than 100 declarations, saying how many', () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ ...genre, options: `f${i}` }))
    expect(refusal(() => withFacetDeclarations(sampleWorkspace, 'demo', many))).toMatchObject({
      code: 'validation',
      message: 'Facets: a connection holds at most 100 declared facets; this list has 101.',
    })
    expect(withFacetDeclarations(sampleWorkspace, 'demo', many.slice(0, 100)).connections[0]!.facets).toHaveLength(100)
  })
})
