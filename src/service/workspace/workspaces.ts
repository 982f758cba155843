import type { ApiDescription } from '../../shared/api-description'
import type { EndpointDefinition, RankingConfig } from '../query/endpoint'
import { facetEndpoints } from '../query/endpoints/facets'
import { city, countries } from '../query/endpoints/lookup'
import { population } from '../query/endpoints/population'
import { search } from '../query/endpoints/search'
import { sort } from '../query/endpoints/sort'
import { triples } from '../query/endpoints/triples'

/**
 * The workspaces this service hosts. `world` is the demo: a protected API
 * with every kind of endpoint and a public one with fewer. `sandbox` exists so
 * that a token of one workspace can be shown to be refused in another.
 */

export interface ApiDefinition {
  name: string
  public: boolean
  configs: RankingConfig[]
  endpoints: Map<string, EndpointDefinition>
}

export interface WorkspaceDefinition {
  name: string
  apis: Map<string, ApiDefinition>
}

export const DEMO_WORKSPACE = 'world'

const DEFAULT_CONFIG: RankingConfig = { name: 'default', ranking: 'text', xml: false }
const PRODUCTION_CONFIG: RankingConfig = { name: 'production', ranking: 'text-and-population', xml: true }

const ALL_ENDPOINTS: EndpointDefinition[] = [search, ...facetEndpoints, population, sort, city, countries, triples]

function api(name: string, isPublic: boolean, configs: RankingConfig[], endpoints: EndpointDefinition[]): ApiDefinition {
  return { name, public: isPublic, configs, endpoints: new Map(endpoints.map((endpoint) => [endpoint.name, endpoint])) }
}

function workspace(name: string, apis: ApiDefinition[]): WorkspaceDefinition {
  return { name, apis: new Map(apis.map((definition) => [definition.name, definition])) }
}

export function hostedWorkspaces(): Map<string, WorkspaceDefinition> {
  const publicEndpoints = ALL_ENDPOINTS.filter((endpoint) => ['search', 'country', 'country:FILTER', 'city', 'countries'].includes(endpoint.name))
  const all = [
    workspace(DEMO_WORKSPACE, [
      api('places', false, [DEFAULT_CONFIG, PRODUCTION_CONFIG], ALL_ENDPOINTS),
      api('public', true, [DEFAULT_CONFIG], publicEndpoints),
    ]),
    workspace('sandbox', [api('places', false, [DEFAULT_CONFIG], ALL_ENDPOINTS)]),
  ]
  return new Map(all.map((definition) => [definition.name, definition]))
}

export function describeApi(workspaceName: string, definition: ApiDefinition): ApiDescription {
  return {
    workspace: workspaceName,
    api: definition.name,
    public: definition.public,
    configs: definition.configs.map((config) => config.name),
    endpoints: [...definition.endpoints.values()].map((endpoint) => ({
      name: endpoint.name,
      kind: endpoint.kind,
      stackable: endpoint.stackable,
      parameters: endpoint.parameters.map((parameter) => ({
        name: parameter.name,
        type: parameter.type,
        required: parameter.required,
        description: parameter.description,
      })),
      output: endpoint.output,
      description: endpoint.description,
    })),
  }
}
