import type { ApiDescription } from '../api-description'
import type { FacetDeclaration } from './facet-declaration'
import { isEndpointStep, type EndpointStep, type QueryOptions, type QueryRequest, type Step } from './model'
import { getEntry } from './records'
import { formatTupleList, isBareOptionId, parseFilterValue, type Tuple } from './tuple'

/**
 * Faceted search (seed, Query request rule 5): a search chain, a facet options
 * endpoint `<facet>` stacked on it for the facet's options, and its partner
 * filter endpoint with a parameter that carries the options the user
 * selected. A facet the API description names follows the seed's convention
 * (`<facet>:FILTER`, `value`, a tuple list); a facet declared by hand says
 * all four facts itself, as the official client's `FacetedSearch.addFacet`
 * does. Both go through the same helpers: each takes a facet as its options
 * endpoint's name (the convention) or as a declaration.
 *
 * Every helper takes either a whole request or just its steps and returns the
 * same kind, never changing its input.
 */

export const FILTER_SUFFIX = ':FILTER'
/** The parameter of a facet filter endpoint that carries the selection (by convention). */
export const FILTER_PARAMETER = 'value'

/** A selected option: an object id (score 1, the service's own notation) or a whole tuple. */
export type FacetSelection = string | Tuple

/** Everything the helpers need to know of one facet. */
export interface FacetSpec {
  /** The facet options endpoint, which also names the facet. */
  options: string
  filter: string
  parameter: string
  /** single: one option, written bare as the clients write it; multiple: a tuple list. */
  selection: 'single' | 'multiple'
  resetOnSearchChange: boolean
}

/**
 * A facet: its options endpoint's name (a described facet, by the seed's
 * convention: tuple lists, kept across searches as before), or what a
 * declaration says, with the official client's defaults for what it leaves out.
 */
export type FacetRef = string | (Pick<FacetDeclaration, 'options'> & Partial<FacetDeclaration>)

export function facetSpec(facet: FacetRef): FacetSpec {
  if (typeof facet === 'string') {
    return { options: facet, filter: facet + FILTER_SUFFIX, parameter: FILTER_PARAMETER, selection: 'multiple', resetOnSearchChange: false }
  }
  return {
    options: facet.options,
    filter: facet.filter ?? facet.options + FILTER_SUFFIX,
    parameter: facet.parameter ?? FILTER_PARAMETER,
    selection: facet.selection ?? 'single',
    resetOnSearchChange: facet.resetOnSearchChange ?? true,
  }
}

export type Chain = QueryRequest | readonly Step[]
type Same<C extends Chain> = C extends QueryRequest ? QueryRequest : Step[]

export function facetFilterName(facet: FacetRef): string {
  return facetSpec(facet).filter
}

function stepsOf(chain: Chain): readonly Step[] {
  return 'steps' in chain ? chain.steps : chain
}

function withSteps<C extends Chain>(chain: C, steps: Step[]): Same<C> {
  return ('steps' in chain ? { ...chain, steps } : steps) as Same<C>
}

function isFilterOf(step: Step, spec: FacetSpec): step is EndpointStep {
  return isEndpointStep(step) && step.endpoint === spec.filter
}

function withoutFilter(steps: readonly Step[], spec: FacetSpec): Step[] {
  return steps.filter((step) => !isFilterOf(step, spec))
}

/**
 * The chain that lists the facet's options: `…/e/<options>`. The facet's own
 * filter is left out, so the options are those of the results filtered by
 * every other facet: a user who picked one country still sees the others to
 * add to the selection. Filters of other facets stay.
 */
export function facetOptionsChain<C extends Chain>(chain: C, facet: FacetRef): Same<C> {
  const spec = facetSpec(facet)
  const steps = withoutFilter(stepsOf(chain), spec)
  steps.push({ endpoint: spec.options, parameters: {} })
  return withSteps(chain, steps)
}

function toTuple(selection: FacetSelection): Tuple {
  return typeof selection === 'string' ? { score: 1, values: [selection] } : selection
}

/**
 * The value of the filter parameter. Several options: the seed's quoted tuple
 * list. One option of a single-selection facet: its id bare, as the official
 * clients write it (`…/p/value/ES`), unless the id holds a parenthesis and
 * would read back as tuple notation: then its quoted tuple, which the service
 * takes the same. A single-selection facet keeps the first option given.
 */
function filterValue(spec: FacetSpec, selected: readonly FacetSelection[]): string {
  if (spec.selection === 'multiple') return formatTupleList(selected.map(toTuple))
  const first = toTuple(selected[0]!)
  const id = first.values.length > 0 ? String(first.values[0]) : ''
  return isBareOptionId(id) ? id : formatTupleList([{ score: 1, values: [id] }])
}

/**
 * The chain filtered by the selected options:
 * `…/e/<filter>/p/<parameter>/1("a")|1("b")` (or the bare id of a single
 * selection). An existing filter step of the facet is replaced where it
 * stands (a second one would intersect the two selections instead of
 * replacing the first); with no existing one, the filter is stacked at the
 * end. An empty selection removes the filter.
 */
export function facetFilterChain<C extends Chain>(chain: C, facet: FacetRef, selected: readonly FacetSelection[]): Same<C> {
  const spec = facetSpec(facet)
  const steps = stepsOf(chain)
  if (selected.length === 0) return withSteps(chain, withoutFilter(steps, spec))
  const filter: EndpointStep = { endpoint: spec.filter, parameters: { [spec.parameter]: filterValue(spec, selected) } }
  const out: Step[] = []
  let placed = false
  for (const step of steps) {
    if (!isFilterOf(step, spec)) out.push(step)
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
 * chain without the facet's own filter, then `/options/<options endpoint>`.
 * The config and the options the client does not know carry over: the page options of a results page do not
 * apply, and without count every option is listed. `multiselect` is sent when given.
 */
export function facetOptionsRequest(request: QueryRequest, facet: FacetRef, multiselect?: boolean): QueryRequest {
  const spec = facetSpec(facet)
  const options: QueryOptions = {}
  if (request.options.config !== undefined) options.config = request.options.config
  if (multiselect !== undefined) options.multiselect = multiselect
  // A deployment's own options (dev_version…) choose what it answers from, for the options as for the results.
  if (request.options.extra !== undefined) options.extra = request.options.extra
  const { facet: _previous, ...rest } = request
  return { ...rest, steps: withoutFilter(request.steps, spec), responseType: 'options', facet: spec.options, options }
}

/**
 * The options selected for the facet in this chain, read back from its filter
 * step in every form the clients write: the seed's `1("a")|1("b")`, the
 * clients' unquoted `1(a)|1(b)`, or a bare option id (`ES`, a single
 * selection), which is that one option. A single-selection facet's value
 * that is not tuple notation is one bare id even with parentheses in it,
 * since that is how the client writes any id. [] when there is no filter or
 * its value cannot be read (a chain typed by hand may hold anything; the
 * filter then shows as unselected rather than failing).
 */
export function facetSelection(chain: Chain, facet: FacetRef): Tuple[] {
  const spec = facetSpec(facet)
  const filter = stepsOf(chain).find((step) => isFilterOf(step, spec))
  const value = filter ? getEntry(filter.parameters, spec.parameter) : undefined
  if (value === undefined) return []
  const tuples = parseFilterValue(value)
  if (tuples.ok) return tuples.value
  return spec.selection === 'single' && value.trim() !== '' ? [{ score: 1, values: [value] }] : []
}

/** The ids selected for the facet: the first value of each selected tuple, as text. */
export function facetSelectedIds(chain: Chain, facet: FacetRef): string[] {
  return facetSelection(chain, facet).flatMap((tuple) => (tuple.values.length > 0 ? [String(tuple.values[0])] : []))
}

/** The facets an API description names: each facet options endpoint whose `<name>:FILTER` partner it also names. */
export function describedFacets(description: ApiDescription | null): string[] {
  const endpoints = description?.endpoints ?? []
  const names = new Set(endpoints.map((endpoint) => endpoint.name))
  return endpoints.filter((endpoint) => endpoint.kind === 'facet-options' && names.has(endpoint.name + FILTER_SUFFIX)).map((endpoint) => endpoint.name)
}

/**
 * The facets the panel shows: those described, then those declared by hand.
 * A declaration for a facet the description also names replaces it in its
 * place: the user said how that facet is to be written.
 */
export function facetSpecs(described: readonly string[], declared: readonly FacetRef[]): FacetSpec[] {
  const specs = declared.map(facetSpec)
  const byOptions = new Map(specs.map((spec) => [spec.options, spec]))
  const fromDescription = described.map((name) => byOptions.get(name) ?? facetSpec(name))
  const shown = new Set(described)
  return [...fromDescription, ...specs.filter((spec) => !shown.has(spec.options))]
}

/**
 * What "the search" of a chain is, for resetting facets when it changes: the
 * first endpoint step, its name and parameters, as text (the client's
 * `searchQuery`). '' for a chain without one.
 */
export function searchKey(chain: Chain): string {
  const first = stepsOf(chain).find(isEndpointStep)
  return first ? JSON.stringify([first.endpoint, Object.entries(first.parameters)]) : ''
}

/**
 * The chain without the filters of the facets that reset when the search
 * changes (the client's `setParameter` drops their selection). The search
 * step itself is never dropped, even when it is named like a filter.
 */
export function withoutResetFilters<C extends Chain>(chain: C, facets: readonly FacetRef[]): Same<C> {
  const reset = new Set(facets.map(facetSpec).filter((spec) => spec.resetOnSearchChange).map((spec) => spec.filter))
  const steps = stepsOf(chain)
  const first = steps.find(isEndpointStep)
  return withSteps(chain, steps.filter((step) => step === first || !(isEndpointStep(step) && reset.has(step.endpoint))))
}
