import type { QueryRequest, Step } from '../query/model'
import { rankingRequest, type TargetOverrides } from '../test-cases/case-request'
import { findQuerySource } from '../workspace/query-source'
import { QUERY_PLACEHOLDER, type QuerySet } from './query-set'

/**
 * From a set's template to each query's request: the template is a saved
 * query (or the set's own request) whose parameter values hold `{{query}}`,
 * and each query of the set fills it with its text. Pure, so the window, the
 * command line and the benchmark ask exactly the same thing.
 */

/** The most a set is evaluated to: the service pages by 100, so deeper asks several pages a query. */
export const MAX_EVAL_DEPTH = 1_000
export const PAGE_LIMIT = 100

export interface ResolvedTemplate {
  /** The file connection the template belongs to. */
  connection: string | null
  request: QueryRequest | null
  /** Why the set cannot run, as a sentence. */
  error: string | null
}

interface TemplateSource {
  queries: { name: string; connection: string; request: QueryRequest }[]
}

export function resolveTemplate(workspace: TemplateSource, set: QuerySet): ResolvedTemplate {
  const found = findQuerySource(workspace, set)
  if (!found) return { connection: null, request: null, error: `The set's template, the saved query "${set.query}", is not in the workspace.` }
  if (!holdsPlaceholder(found.request)) {
    return {
      connection: found.connection,
      request: found.request,
      error: `The set's template holds no ${QUERY_PLACEHOLDER}: every query would ask the same thing. Put ${QUERY_PLACEHOLDER} in a parameter value (for example the search step's query).`,
    }
  }
  return { connection: found.connection, request: found.request, error: null }
}

function stepValues(step: Step): Record<string, string> {
  return 'endpoint' in step ? step.parameters : step.context
}

export function holdsPlaceholder(request: QueryRequest): boolean {
  return request.steps.some((step) => Object.values(stepValues(step)).some((value) => value.includes(QUERY_PLACEHOLDER)))
}

/** The template with each `{{query}}` of its parameter (and context) values replaced by the query's text. */
export function fillTemplate(request: QueryRequest, text: string): QueryRequest {
  const fill = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).map(([name, value]) => [name, value.split(QUERY_PLACEHOLDER).join(text)]))
  return {
    ...request,
    steps: request.steps.map((step) => ('endpoint' in step ? { endpoint: step.endpoint, parameters: fill(step.parameters) } : { context: fill(step.context) })),
  }
}

/**
 * The pages one query of a set asks: its top `depth` results in JSON from the
 * first, on the target, a page of at most 100 each (the service's limit).
 */
export function setQueryPages(template: QueryRequest, text: string, depth: number, overrides: TargetOverrides = {}): QueryRequest[] {
  const filled = fillTemplate(template, text)
  const pages: QueryRequest[] = []
  for (let offset = 0; offset < depth; offset += PAGE_LIMIT) {
    const request = rankingRequest(filled, { depth: Math.min(PAGE_LIMIT, depth - offset), total: false }, overrides)
    pages.push(offset === 0 ? request : { ...request, options: { ...request.options, offset } })
  }
  return pages
}
