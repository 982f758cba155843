import type { QueryRequest, ResponseType } from '../../shared/query/model'
import { ServiceError, badRequest } from '../refusal'
import type { ApiDefinition } from '../workspace/workspaces'
import { planChain, type PlannedStep } from './chain-plan'
import type { EndpointDefinition } from './endpoint'
import { resolveOptions, type ResolvedOptions } from './options'

/**
 * The checks of a Query API request after its token, in their fixed order
 * (options, chain, format). None needs the dataset, so the thread that reads
 * HTTP runs them and refuses a bad request at once; what passes becomes a
 * CheckedQuery, plain data the query thread runs (query-work.ts).
 */

/** One planned step by name: what crosses to the query thread, which finds the endpoint again by it. */
export interface StepByName {
  endpoint: string
  parameters: Record<string, string>
}

interface Checked {
  workspace: string
  api: string
  options: ResolvedOptions
  /** The chain to run, context parameters resolved. */
  steps: StepByName[]
}

export type CheckedQuery =
  | (Checked & { responseType: Exclude<ResponseType, 'options'> })
  /** `options/<facet>`: the facet, and the parameters of each of its own filter steps in the chain. */
  | (Checked & { responseType: 'options'; facet: { name: string; own: Record<string, string>[] } })

export function noSuchApi(what: string): ServiceError {
  return new ServiceError(404, `No such api: ${what}`)
}

export function checkQuery(request: QueryRequest, workspace: string, api: ApiDefinition): CheckedQuery {
  const options = resolveOptions(request.options, request.responseType, workspace, api.configs)
  if (request.responseType === 'options') {
    const { plan, facet, own } = facetPlan(request, api, options)
    const facetNamed = { name: facet.name, own: own.map((step) => step.parameters) }
    return { workspace, api: api.name, options, steps: plan.map(byName), responseType: 'options', facet: facetNamed }
  }
  const plan = planChain(request.steps, api)
  checkFormat(request.responseType, options, plan[plan.length - 1]!.endpoint)
  return { workspace, api: api.name, options, steps: plan.map(byName), responseType: request.responseType }
}

const byName = ({ endpoint, parameters }: PlannedStep): StepByName => ({ endpoint: endpoint.name, parameters })

function checkFormat(responseType: ResponseType, options: ResolvedOptions, last: EndpointDefinition): void {
  if (responseType === 'results,count' && options.format !== 'json') {
    throw new ServiceError(406, `format ${options.format} is not available for results,count, whose answer is a JSON array; use results for ${options.format}`)
  }
  if (responseType !== 'results') return
  if (options.format === 'xml' && !options.config.xml) {
    throw new ServiceError(406, `format xml is not enabled for this configuration ("${options.config.name}"); use config=production or another format`)
  }
  const triple = last.output.length === 3 && last.output.every((type) => type === 'STRING')
  if (options.format === 'rdf' && !triple) {
    throw new ServiceError(406, `format rdf is only for endpoints whose output is [STRING,STRING,STRING]; "${last.name}" gives [${last.output.join(',')}]`)
  }
}

/**
 * `…/options/<facet>`: the facet named must be a facet options endpoint; the
 * chain before it, with the facet stacked last, is planned as any other. With
 * `multiselect=true` the facet's own filter is left out of what runs.
 */
function facetPlan(request: QueryRequest, api: ApiDefinition, options: ResolvedOptions): { plan: PlannedStep[]; facet: EndpointDefinition; own: PlannedStep[] } {
  const facetName = request.facet ?? ''
  const facet = api.endpoints.get(facetName)
  if (!facet) {
    throw badRequest(`no endpoint named "${facetName}" in api "${api.name}" to list options of (it has: ${[...api.endpoints.keys()].join(', ')})`)
  }
  if (facet.kind !== 'facet-options' || !facet.option) {
    throw badRequest(`The endpoint "${facet.name}" is a ${facet.kind} endpoint, not a facet options endpoint, so it has no options to list`)
  }
  const full = planChain([...request.steps, { endpoint: facet.name, parameters: {} }], api)
  const own = full.filter((step) => step.endpoint.name === `${facet.name}:FILTER`)
  const plan = options.multiselect ? full.filter((step) => !own.includes(step)) : full
  return { plan, facet, own }
}
