import { OPTION_ORDER, isEndpointStep, type OptionName, type QueryOptions, type QueryRequest, type Step } from '../query/model'
import { normalizeSteps } from '../query/normalize'
import { optionApplies } from '../query/response-types'

/**
 * Whether the editor's request is the saved query's: the question behind the
 * "unsaved" marker. Two requests are the same query when they ask the same
 * thing, so the comparison is on a canonical form, not on the JSON as written:
 *
 * - An option at the value the editor and the service take when it is not
 *   written (count 10, config default, format json…) is the same as no
 *   option: a file may write `"config": "default"`, the editor leaves it out.
 * - Options the response type does not take are never sent, so they do not count.
 * - `offset` is the page looked at, not part of the query: paging through the
 *   results of a saved query leaves it saved.
 * - Parameter and context names in any order; an empty parameter is the same
 *   as none (the API description adds empty optional ones to a loaded step).
 * - Adjacent context steps are one, as in a URL (normalizeSteps).
 * - Options the client does not know (`extra`) are part of the query as
 *   written, in the order given (they are sent in that order).
 * - `workspace` and `version` come from the connection the query runs on,
 *   which is compared on its own.
 */

/** The value each option has when a request leaves it out. */
const DEFAULTS: Partial<Record<OptionName, string | number | boolean>> = {
  config: 'default',
  count: 10,
  format: 'json',
  homogeneousArrays: false,
  rank: 1,
  column: 1,
  multiselect: false,
}

type Pairs = [string, string][]

/** Sorted by name; the order of a record is how it was typed, not what it asks. */
function pairs(record: Record<string, string>, dropEmpty: boolean): Pairs {
  return Object.entries(record)
    .filter(([, value]) => !dropEmpty || value !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

function canonicalStep(step: Step): unknown {
  return isEndpointStep(step) ? ['e', step.endpoint, pairs(step.parameters, true)] : ['c', pairs(step.context, false)]
}

function canonicalOptions(options: QueryOptions, request: QueryRequest): [string, unknown][] {
  const out: [string, unknown][] = []
  for (const name of OPTION_ORDER) {
    const value = options[name]
    if (name === 'offset' || value === undefined || !optionApplies(name, request.responseType)) continue
    if (DEFAULTS[name] === value) continue
    out.push([name, value])
  }
  const extra = options.extra
  if (extra && Object.keys(extra).length > 0) out.push(['extra', Object.entries(extra)])
  return out
}

/** The canonical form of a request as a query: what the "unsaved" marker compares. */
export function canonicalQuery(request: QueryRequest): unknown {
  return [
    request.api,
    normalizeSteps(request.steps).map(canonicalStep),
    request.responseType,
    request.responseType === 'options' ? (request.facet ?? '') : '',
    canonicalOptions(request.options ?? {}, request),
  ]
}

/** True when both requests ask the same query (see the rules above). */
export function sameQuery(a: QueryRequest, b: QueryRequest): boolean {
  return JSON.stringify(canonicalQuery(a)) === JSON.stringify(canonicalQuery(b))
}
