import { describe, expect, it } from 'vitest'
import { absenceSentence, ApiDescriptionSchema, ApiLearningSchema } from '../../src/shared/api-description'

const DESCRIPTION = {
  workspace: 'films',
  api: 'movies',
  public: false,
  configs: ['default'],
  endpoints: [
    { name: 'search', kind: 'search', stackable: false, parameters: [{ name: 'query', type: 'STRING', required: true }], output: ['OBJ'] },
  ],
}

describe('ApiDescriptionSchema', () => {
  it('reads a description and keeps the fields a newer service adds, at every level', () => {
    const read = ApiDescriptionSchema.parse({
      ...DESCRIPTION,
      version: 5,
      endpoints: [{ ...DESCRIPTION.endpoints[0], cost: 'low', parameters: [{ name: 'query', type: 'STRING', unit: 'words' }] }],
    })
    expect(read.version).toBe(5)
    expect(read.endpoints[0]!.cost).toBe('low')
    expect(read.endpoints[0]!.parameters[0]!.unit).toBe('words')
  })

  it('refuses an endpoint kind or a data type it does not know, naming where', () => {
    const read = ApiDescriptionSchema.safeParse({
      ...DESCRIPTION,
      endpoints: [{ ...DESCRIPTION.endpoints[0], kind: 'sort', parameters: [{ name: 'query', type: 'FLOAT' }] }],
    })
    expect(read.success).toBe(false)
    expect(read.error!.issues.map((issue) => issue.path.join('.'))).toEqual(['endpoints.0.kind', 'endpoints.0.parameters.0.type'])
  })

  it('learning holds a description or why there is none, and a reason it does not know is refused', () => {
    expect(ApiLearningSchema.parse({ description: null, absence: { reason: 'not-found', status: 404 } }).absence).toEqual({ reason: 'not-found', status: 404 })
    expect(ApiLearningSchema.safeParse({ description: null, absence: { reason: 'gone', status: 410 } }).success).toBe(false)
    expect(ApiLearningSchema.safeParse({ description: null, absence: { reason: 'not-found', status: 404.5 } }).success).toBe(false)
  })
})

describe('absenceSentence', () => {
  it('says in the facets panel why there is no description, with its status, and that facets are declared there', () => {
    expect(absenceSentence({ reason: 'not-found', status: 404 })).toBe(
      'This API serves no description (404): endpoints are typed by name, and facets are declared here.',
    )
    expect(absenceSentence({ reason: 'not-allowed', status: 401 })).toBe(
      "This API's description may not be read with this account (401): endpoints are typed by name, and facets are declared here.",
    )
    expect(absenceSentence({ reason: 'other-shape', status: 200 })).toBe(
      "This API's description route answered in another format (200), not one this app reads: endpoints are typed by name, and facets are declared here.",
    )
  })

  it('in the chain, points to typing names and to the Facets panel', () => {
    expect(absenceSentence({ reason: 'not-allowed', status: 403 }, 'chain')).toBe(
      "This API's description may not be read with this account (403): type endpoint and parameter names (those used before are offered), and declare facets in the Facets panel.",
    )
  })
})
