import type { Dataset, DataObject } from '../dataset/model'
import type { TextIndex } from '../dataset/text-index'
import { toCsv } from '../formats/csv'
import { toNTriples } from '../formats/ntriples'
import { tableOf } from '../formats/table'
import { toXlsx } from '../formats/xlsx'
import { toXml } from '../formats/xml'
import { jsonReply, type Reply } from '../http/reply'
import { ServiceError, badRequest } from '../refusal'
import type { ApiDefinition, WorkspaceDefinition } from '../workspace/workspaces'
import { runChain } from './chain'
import type { ChainCache } from './chain-cache'
import type { PlannedStep } from './chain-plan'
import type { EndpointDefinition, RunContext } from './endpoint'
import { selectedIds } from './endpoints/facets'
import type { ResolvedOptions } from './options'
import type { CheckedQuery } from './query-check'
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
} from './render'
import type { Item, ResultSet } from './result-set'
import { WorkBudget } from './work-budget'

/**
 * The work of a checked query (query-check.ts): its chain over the dataset,
 * then the page in its format. This is what the query thread runs
 * (query-worker.ts); it imports none of the request schemas, which the
 * thread would otherwise load at every start.
 */

/** What running a query needs: the dataset, its index, and the results of chains run before. */
export interface QueryEngine {
  workspaces: Map<string, WorkspaceDefinition>
  dataset: Dataset
  text: TextIndex
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

export async function runQuery(engine: QueryEngine, query: CheckedQuery): Promise<Reply> {
  // Started here, when the work starts: time spent waiting for the query thread is not this request's work.
  const budget = new WorkBudget(engine.budgetMs)
  const api = engine.workspaces.get(query.workspace)?.apis.get(query.api)
  if (!api) throw new Error(`a checked query names an api this thread does not host: ${query.workspace}/${query.api}`)
  const plan = query.steps.map(({ endpoint, parameters }): PlannedStep => ({ endpoint: endpointOf(api, endpoint), parameters }))
  const { options } = query
  const context: RunContext = { dataset: engine.dataset, text: engine.text, config: options.config, budget }
  if (query.responseType === 'options') return facetOptions(engine, plan, endpointOf(api, query.facet.name), query.facet.own, options, context)

  const { result } = runChain(plan, context, engine.chainCache)
  const items = applyCutoff(result.items, options.cutoff)
  switch (query.responseType) {
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

function endpointOf(api: ApiDefinition, name: string): EndpointDefinition {
  const endpoint = api.endpoints.get(name)
  if (!endpoint) throw new Error(`a checked query names an endpoint "${name}" that api "${api.name}" does not have`)
  return endpoint
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
 * `…/options/<facet>`: the facet's options for the chain before it, each
 * with how many results have it (`score`), most first. The chain by
 * convention leaves out the facet's own filter; when it holds one, its
 * options are the `selected` ones, and with `multiselect=true` the options
 * are counted without that filter (query-check.ts leaves it out of the
 * plan), so the other options stay visible to add. Every option is listed
 * unless `count` asks for a page.
 */
function facetOptions(
  engine: QueryEngine,
  plan: PlannedStep[],
  facet: EndpointDefinition,
  own: Record<string, string>[],
  options: ResolvedOptions,
  context: RunContext,
): Reply {
  const filterName = `${facet.name}:FILTER`
  const { result } = runChain(plan, context, engine.chainCache)
  const counted = result.items.map((item) => {
    const object = item.tuple[0] as DataObject
    return facetOption(object, Number(object.attributes.count ?? 0))
  })
  const counts = new Map(counted.map((option) => [option.id, option]))
  const selected: FacetOption[] = []
  for (const parameters of own) {
    for (const id of selectedIds(filterName, parameters.value ?? '')) {
      if (selected.some((option) => option.id === id)) continue
      const object = facet.option?.(id, engine.dataset)
      selected.push(counts.get(id) ?? (object ? facetOption(object, 0) : { id, score: 0, value: id, title: id }))
    }
  }
  const listed = options.countGiven ? counted.slice(options.offset, options.offset + options.count) : counted.slice(options.offset)
  return jsonReply(200, { id: facet.name, title: facet.title ?? facet.name, selected, options: listed })
}
