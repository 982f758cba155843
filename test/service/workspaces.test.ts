import { describe, expect, it } from 'vitest'
import { DEMO_WORKSPACE, describeApi, hostedWorkspaces } from '../../src/service/workspace/workspaces'

/**
 * The workspaces the service hosts: `world`, the demo, a protected API with
 * every kind of endpoint and a public one with fewer; `sandbox`, so a token
 * of one workspace can be shown refused in another; and an API's description.
 */

const PLACES_ENDPOINTS = ['search', 'continent', 'continent:FILTER', 'country', 'country:FILTER', 'population', 'sort', 'city', 'countries', 'triples']

describe('hostedWorkspaces', () => {
  const workspaces = hostedWorkspaces()

  it('hosts world (the demo) and sandbox', () => {
    expect(DEMO_WORKSPACE).toBe('world')
    expect([...workspaces.keys()]).toEqual(['world', 'sandbox'])
    expect([...workspaces.get('world')!.apis.keys()]).toEqual(['places', 'public'])
    expect([...workspaces.get('sandbox')!.apis.keys()]).toEqual(['places'])
  })

  it("world's places is protected, ranked by default or production, with every endpoint", () => {
    const places = workspaces.get('world')!.apis.get('places')!
    expect(places.public).toBe(false)
    expect(places.configs.map((config) => config.name)).toEqual(['default', 'production'])
    expect([...places.endpoints.keys()]).toEqual(PLACES_ENDPOINTS)
  })

  it("world's public needs no token and has a few endpoints, the default configuration only", () => {
    const open = workspaces.get('world')!.apis.get('public')!
    expect(open.public).toBe(true)
    expect(open.configs.map((config) => config.name)).toEqual(['default'])
    expect([...open.endpoints.keys()]).toEqual(['search', 'country', 'country:FILTER', 'city', 'countries'])
  })

  it('gives each call its own maps: a change to one does not reach the next', () => {
    workspaces.get('world')!.apis.delete('public')
    expect(hostedWorkspaces().get('world')!.apis.has('public')).toBe(true)
  })
})

describe('describeApi', () => {
  it('describes the API: its workspace, whether it is public, its configurations and each endpoint with its parameters', () => {
    const description = describeApi('world', hostedWorkspaces().get('world')!.apis.get('public')!)
    expect(description).toMatchObject({ workspace: 'world', api: 'public', public: true, configs: ['default'] })
    expect(description.endpoints.map((endpoint) => [endpoint.name, endpoint.kind, endpoint.stackable, endpoint.parameters.map((p) => `${p.name}:${p.type}${p.required ? '' : '?'}`)])).toEqual([
      ['search', 'search', false, ['query:STRING']],
      ['country', 'facet-options', true, []],
      ['country:FILTER', 'facet-filter', true, ['value:TUPLE_LIST']],
      ['city', 'item', false, ['id:STRING']],
      ['countries', 'list', false, []],
    ])
    expect(description.endpoints[0]).toMatchObject({
      output: ['OBJ'],
      description: 'Cities whose name matches the query (words from three letters on also match as prefixes).',
      parameters: [{ name: 'query', type: 'STRING', required: true, description: 'Words to look for in city names, such as "new york"' }],
    })
  })

  it('names the workspace it is asked under (sandbox hosts places too)', () => {
    const description = describeApi('sandbox', hostedWorkspaces().get('sandbox')!.apis.get('places')!)
    expect(description).toMatchObject({ workspace: 'sandbox', api: 'places', public: false, configs: ['default'] })
    expect(description.endpoints.map((endpoint) => endpoint.name)).toEqual(PLACES_ENDPOINTS)
  })
})
