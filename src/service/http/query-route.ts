import { parseTarget } from '../../shared/query/url'
import { authorize } from '../auth/bearer'
import type { AccountDirectory } from '../auth/accounts'
import type { TokenStore } from '../auth/tokens'
import type { Dataset } from '../dataset/model'
import type { TextIndex } from '../dataset/text-index'
import { toCsv } from '../formats/csv'
import { toNTriples } from '../formats/ntriples'
import { tableOf } from '../formats/table'
import { toXlsx } from '../formats/xlsx'
import { toXml } from '../formats/xml'
import type { ResponseType, Step } from '../../shared/query/model'
import type { DataObject } from '../dataset/model'
import { planChain, runChain } from '../query/chain'
import type { ChainCache } from '../query/chain-cache'
import type { EndpointDefinition, RunContext } from '../query/endpoint'
import { selectedIds } from '../query/endpoints/facets'
import { resolveDescriptionConfig, resolveOptions, type ResolvedOptions } from '../query/options'
import {
  applyCutoff,
  entityView,
  facetOption,
  pageOf,
  resultPageBody,
  resultsBody,
  statisticsBody,
  type FacetOption,
  type JsonObject,
  type Page,
} from '../query/render'
import type { Item, ResultSet } from '../query/result-set'
import { WorkBudget } from '../query/work-budget'
import { ServiceError, badRequest } from '../service-error'
import { describeApi, type ApiDefinition, type WorkspaceDefinition } from '../workspace/workspaces'
import { jsonReply, type Reply } from './reply'

/**
 * The Query API: `GET {query_url}[/<version>]/<workspace>/api/<api>/…`.
 * Checks run cheapest first and in a fixed order (path, workspace and api,
 * token, options, chain, format) so a request always meets the same error.
 */

export interface QueryService {
  /** Path segments of the query URL itself, such as ["query"]. */
  prefix: string[]
  workspaces: Map<string, WorkspaceDefinition>
  dataset: Dataset
  text: TextIndex
  tokens: TokenStore
  accounts: AccountDirectory
  /** Results of chain prefixes; they never change while the service runs. */
  chainCache: ChainCache
  /** The most milliseconds of work one request may take before a 503. */
  budgetMs: number
}

const TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xml: 'application/xml; charset=utf-8',
  rdf: 'application/n-triples; charset=utf-8',
}

function noSuchApi(what: string): ServiceError {
  return new ServiceError(404, `No such api: ${what}`)
}

export async function answerQuery(service: QueryService, path: string, search: string, authorization: string | undefined): Promise<Reply> {
  // Started here, not on arrival: time spent queued behind other requests is not this one's work.
  const budget = new WorkBudget(service.budgetMs)
  const status = STATUS_PATH.exec(path)
  if (status) {
    const answered = apiStatus(service, `${status[1]}/`, search, authorization)
    if (answered) return answered
  }
  const target = parseTarget(path, search)
  if (!target.ok) {
    if (!path.split('/').includes('api')) throw noSuchApi(`nothing is served at ${path.slice(0, 200)}`)
    throw badRequest(`The request cannot be read: ${target.error.message}`)
  }
  const { request, prefix, responseTypeGiven } = target.value
  if (prefix.join('/') !== service.prefix.join('/')) throw noSuchApi(`nothing is served at ${path.slice(0, 200)}`)
  const workspace = service.workspaces.get(request.workspace)
  const api = workspace?.apis.get(request.api)
  if (!workspace || !api) throw noSuchApi(`${request.workspace}/${request.api}`)

  // A protected API's description needs a token too: the client libraries take a 200 there to mean "public".
  if (!api.public) authorize(authorization, workspace.name, service.tokens, service.accounts)
  if (request.steps.length === 0 && !responseTypeGiven) {
    resolveDescriptionConfig(request.options, workspace.name, api.configs)
    return jsonReply(200, describeApi(workspace.name, api))
  }

  const options = resolveOptions(request.options, request.responseType, workspace.name, api.configs)
  const context = { dataset: service.dataset, text: service.text, config: options.config, budget }
  if (request.responseType === 'options') return facetOptions(service, request.steps, request.facet ?? '', api, options, context)

  const plan = planChain(request.steps, api)
  const last = plan[plan.length - 1]!.endpoint
  checkFormat(request.responseType, options, last)

  const { result } = runChain(plan, context, service.chainCache)
  const items = applyCutoff(result.items, options.cutoff)
  switch (request.responseType) {
    case 'count':
      return jsonReply(200, { total: items.length })
    case 'statistics':
      return jsonReply(200, statisticsBody(items))
    case 'results,count': {
      // What the real backend answers, and the client libraries' types say: [results, statistics].
      const page = pageOf(items, options.offset, options.count)
      return jsonReply(200, [resultsBody(result, page, options.level, options.homogeneousArrays), statisticsBody(items)])
    }
    case 'resultpage':
      return jsonReply(200, resultPageBody(result, pageOf(items, options.offset, options.count)))
    case 'resultitem':
      return jsonReply(200, resultItem(items, options))
    case 'results':
      return formatted(result, pageOf(items, options.offset, options.count), options)
  }
}

/** `…/api/<api>/status`: the route the official clients name for an API's status (apiStatusUrl). */
const STATUS_PATH = /^(.*\/api\/[^/]+)\/status\/?$/

/**
 * The API's status: what its description route checks (workspace and api,
 * the token of a protected API, `config`), answered with `{"status": "ok"}`
 * and what was checked; null when the path is not an API's root after all
 * (a chain whose last parameter is named "api"), which then reads as a query.
 */
function apiStatus(service: QueryService, apiPath: string, search: string, authorization: string | undefined): Reply | null {
  const target = parseTarget(apiPath, search)
  if (!target.ok || target.value.request.steps.length > 0 || target.value.responseTypeGiven) return null
  const { request, prefix } = target.value
  if (prefix.join('/') !== service.prefix.join('/')) return null
  const workspace = service.workspaces.get(request.workspace)
  const api = workspace?.apis.get(request.api)
  if (!workspace || !api) throw noSuchApi(`${request.workspace}/${request.api}`)
  if (!api.public) authorize(authorization, workspace.name, service.tokens, service.accounts)
  const config = resolveDescriptionConfig(request.options, workspace.name, api.configs)
  return jsonReply(200, { status: 'ok', workspace: workspace.name, api: api.name, config: config.name })
}

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

async function formatted(result: ResultSet, page: Page, options: ResolvedOptions): Promise<Reply> {
  switch (options.format) {
    case 'json':
      return jsonReply(200, resultsBody(result, page, options.level, options.homogeneousArrays))
    case 'csv':
      return { status: 200, headers: { 'Content-Type': TYPES.csv! }, body: toCsv(tableOf(page, options.level)) }
    case 'xlsx':
      return {
        status: 200,
        headers: { 'Content-Type': TYPES.xlsx!, 'Content-Disposition': 'attachment; filename="results.xlsx"' },
        body: await toXlsx(tableOf(page, options.level)),
      }
    case 'xml':
      return { status: 200, headers: { 'Content-Type': TYPES.xml! }, body: toXml(result, page, options.level) }
    case 'rdf':
      return { status: 200, headers: { 'Content-Type': TYPES.rdf! }, body: toNTriples(page) }
  }
}

/** `resultitem`: the entity view of one column of the item at one rank. */
function resultItem(items: Item[], options: ResolvedOptions): JsonObject {
  const item = items[options.rank - 1]
  if (!item) {
    throw new ServiceError(404, `No result at rank ${options.rank}: the request has ${items.length} result${items.length === 1 ? '' : 's'}`)
  }
  const cell = item.tuple[options.column - 1]
  if (cell === undefined) {
    throw badRequest(`Option column ${options.column} is past the last column of the results (they have ${item.tuple.length})`)
  }
  return entityView(cell)
}

/**
 * `…/options/<facet>`: the facet's options for the chain before it, each with
 * how many results have it (`score`), most first. The chain by convention
 * leaves out the facet's own filter; when it holds one, its options are the
 * `selected` ones, and with `multiselect=true` the options are counted
 * without that filter, so the other options stay visible to add. Every
 * option is listed unless `count` asks for a page.
 */
function facetOptions(
  service: QueryService,
  steps: Step[],
  facetName: string,
  api: ApiDefinition,
  options: ResolvedOptions,
  context: RunContext,
): Reply {
  const facet = api.endpoints.get(facetName)
  if (!facet) {
    throw badRequest(`no endpoint named "${facetName}" in api "${api.name}" to list options of (it has: ${[...api.endpoints.keys()].join(', ')})`)
  }
  if (facet.kind !== 'facet-options' || !facet.option) {
    throw badRequest(`The endpoint "${facet.name}" is a ${facet.kind} endpoint, not a facet options endpoint, so it has no options to list`)
  }
  const full = planChain([...steps, { endpoint: facet.name, parameters: {} }], api)
  const filterName = `${facet.name}:FILTER`
  const own = full.filter((step) => step.endpoint.name === filterName)
  const plan = options.multiselect ? full.filter((step) => !own.includes(step)) : full
  const { result } = runChain(plan, context, service.chainCache)
  const counted = result.items.map((item) => {
    const object = item.tuple[0] as DataObject
    return facetOption(object, Number(object.attributes.count ?? 0))
  })
  const counts = new Map(counted.map((option) => [option.id, option]))
  const selected: FacetOption[] = []
  for (const step of own) {
    for (const id of selectedIds(filterName, step.parameters.value ?? '')) {
      if (selected.some((option) => option.id === id)) continue
      const object = facet.option(id, service.dataset)
      selected.push(counts.get(id) ?? (object ? facetOption(object, 0) : { id, score: 0, value: id, title: id }))
    }
  }
  const listed = options.countGiven ? counted.slice(options.offset, options.offset + options.count) : counted.slice(options.offset)
  return jsonReply(200, { id: facet.name, title: facet.title ?? facet.name, selected, options: listed })
}
