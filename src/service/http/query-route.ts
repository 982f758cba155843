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
import { planChain, runChain } from '../query/chain'
import type { ChainCache } from '../query/chain-cache'
import { resolveOptions } from '../query/options'
import { applyCutoff, pageOf, resultsBody, statisticsBody } from '../query/render'
import { WorkBudget } from '../query/work-budget'
import { ServiceError, badRequest } from '../service-error'
import { describeApi, type WorkspaceDefinition } from '../workspace/workspaces'
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

  if (request.steps.length === 0 && !responseTypeGiven) return jsonReply(200, describeApi(workspace.name, api))
  if (!api.public) authorize(authorization, workspace.name, service.tokens, service.accounts)

  const options = resolveOptions(request.options, workspace.name, api.configs)
  const plan = planChain(request.steps, api)
  const last = plan[plan.length - 1]!.endpoint
  if (request.responseType === 'results') {
    if (options.format === 'xml' && !options.config.xml) {
      throw new ServiceError(406, `format xml is not enabled for this configuration ("${options.config.name}"); use config=production or another format`)
    }
    const triple = last.output.length === 3 && last.output.every((type) => type === 'STRING')
    if (options.format === 'rdf' && !triple) {
      throw new ServiceError(
        406,
        `format rdf is only for endpoints whose output is [STRING,STRING,STRING]; "${last.name}" gives [${last.output.join(',')}]`,
      )
    }
  }

  const { result } = runChain(plan, { dataset: service.dataset, text: service.text, config: options.config, budget }, service.chainCache)
  const items = applyCutoff(result.items, options.cutoff)
  if (request.responseType === 'count') return jsonReply(200, { total: items.length })
  if (request.responseType === 'statistics') return jsonReply(200, statisticsBody(items))

  const page = pageOf(items, options.offset, options.count)
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
