import { isEndpointStep, type EndpointStep, type QueryOptions, type QueryRequest, type Step } from './model'
import { getEntry } from './records'
import { formatTupleList, parseFilterValue, type Tuple } from './tuple'

/**
 * Faceted search (seed, Query request rule 5): a search chain, a facet options
 * endpoint `<facet>` stacked on it for the facet's options, and its partner
 * `<facet>:FILTER` with `value` in tuple notation to filter by the options
 * the user selected.
 *
 * Every helper takes either a whole request or just its steps and returns the
 * same kind, never changing its input.
 */

export const FILTER_SUFFIX = ':FILTER'
/** The parameter of a facet filter endpoint that carries the selection (by convention). */
export const FILTER_PARAMETER = 'value'

/** A selected option: an object id (score 1, the service's own notation) or a whole tuple. */
export type FacetSelection = string | Tuple

export type Chain = QueryRequest | readonly Step[]
type Same<C extends Chain> = C extends QueryRequest ? QueryRequest : Step[]

export function facetFilterName(facet: string): string {
  return facet + FILTER_SUFFIX
}

function stepsOf(chain: Chain): readonly Step[] {
  return 'steps' in chain ? chain.steps : chain
}

function withSteps<C extends Chain>(chain: C, steps: Step[]): Same<C> {
  return ('steps' in chain ? { ...chain, steps } : steps) as Same<C>
}

function isFilterOf(step: Step, facet: string): step is EndpointStep {
  return isEndpointStep(step) && step.endpoint === facetFilterName(facet)
}

function withoutFilter(steps: readonly Step[], facet: string): Step[] {
  return steps.filter((step) => !isFilterOf(step, facet))
}

/**
 * The chain that lists the facet's options: `…/e/<facet>`. The facet's own
 * filter is left out, so the options are those of the results filtered by
 * every other facet: a user who picked one country still sees the others to
 * add to the selection. Filters of other facets stay.
 */
export function facetOptionsChain<C extends Chain>(chain: C, facet: string): Same<C> {
  const steps = withoutFilter(stepsOf(chain), facet)
  steps.push({ endpoint: facet, parameters: {} })
  return withSteps(chain, steps)
}

function toTuple(selection: FacetSelection): Tuple {
  return typeof selection === 'string' ? { score: 1, values: [selection] } : selection
}

/**
 * The chain filtered by the selected options:
 * `…/e/<facet>:FILTER/p/value/1("a")|1("b")`. An existing filter step of
 * the facet is replaced where it stands (a second one would intersect the
 * two selections instead of replacing the first); with no existing one, the
 * filter is stacked at the end. An empty selection removes the filter.
 */
export function facetFilterChain<C extends Chain>(chain: C, facet: string, selected: readonly FacetSelection[]): Same<C> {
  const steps = stepsOf(chain)
  if (selected.length === 0) return withSteps(chain, withoutFilter(steps, facet))
  const filter: EndpointStep = {
    endpoint: facetFilterName(facet),
    parameters: { [FILTER_PARAMETER]: formatTupleList(selected.map(toTuple)) },
  }
  const out: Step[] = []
  let placed = false
  for (const step of steps) {
    if (!isFilterOf(step, facet)) out.push(step)
    else if (!placed) {
      out.push(filter)
      placed = true
    }
  }
  if (!placed) out.push(filter)
  return withSteps(chain, out)
}

/**
 * The `options/<facet>` request of a facet (SERVICE-CONTRACT "URLs"): the
 * chain without the facet's own filter, then `/options/<facet>`. Only the
 * config carries over: the page options of a results page do not apply, and
 * without count every option is listed. `multiselect` is sent when given.
 */
export function facetOptionsRequest(request: QueryRequest, facet: string, multiselect?: boolean): QueryRequest {
  const options: QueryOptions = {}
  if (request.options.config !== undefined) options.config = request.options.config
  if (multiselect !== undefined) options.multiselect = multiselect
  const { facet: _previous, ...rest } = request
  return { ...rest, steps: withoutFilter(request.steps, facet), responseType: 'options', facet, options }
}

/**
 * The options selected for the facet in this chain, read back from its filter
 * step: tuple notation, or a bare option id (`…/e/country:FILTER/p/value/ES`,
 * as the client libraries write a single selection), which is that one
 * option. [] when there is no filter or its value cannot be read (a chain
 * typed by hand may hold anything; the filter then shows as unselected
 * rather than failing).
 */
export function facetSelection(chain: Chain, facet: string): Tuple[] {
  const filter = stepsOf(chain).find((step) => isFilterOf(step, facet))
  const value = filter ? getEntry(filter.parameters, FILTER_PARAMETER) : undefined
  if (value === undefined) return []
  const tuples = parseFilterValue(value)
  return tuples.ok ? tuples.value : []
}

/** The ids selected for the facet: the first value of each selected tuple, as text. */
export function facetSelectedIds(chain: Chain, facet: string): string[] {
  return facetSelection(chain, facet).flatMap((tuple) => (tuple.values.length > 0 ? [String(tuple.values[0])] : []))
}
