import { z } from 'zod'

/**
 * A facet declared by hand, for a deployment that serves no description to
 * learn it from (SERVICE-CONTRACT "Real deployments"). The same four facts the
 * official TypeScript client's `FacetedSearch.addFacet(endpoint, type,
 * resetOnQueryChange, filterEndpointPostfix, filterEndpointParameterName)`
 * takes, with its defaults: filter = options endpoint + `:FILTER`, parameter
 * `value`, single selection, reset when the search changes. Declarations
 * belong to one connection (one API) and travel in the workspace file.
 */

const EndpointName = z.string().min(1).max(500)

export const FACET_SELECTIONS = ['single', 'multiple'] as const

export const FacetDeclarationSchema = z
  .object({
    /** The facet options endpoint (`…/e/<options>` lists the options). */
    options: EndpointName,
    /** The filter endpoint; left out: the options endpoint + `:FILTER`. */
    filter: EndpointName.optional(),
    /** The filter's parameter that carries the selection; left out: `value`. */
    parameter: z.string().min(1).max(500).optional(),
    /** One option at a time (written bare, as the clients write it) or several (a tuple list). */
    selection: z.enum(FACET_SELECTIONS).default('single'),
    /** Drop this facet's selection when the search parameters change (the client's `resetOnQueryChange`, default true). */
    resetOnSearchChange: z.boolean().default(true),
  })
  .strict()

export type FacetDeclaration = z.infer<typeof FacetDeclarationSchema>
export type FacetSelectionKind = (typeof FACET_SELECTIONS)[number]

/** Declarations one connection may hold: more is a file from elsewhere, not a user's facets. */
export const MAX_FACET_DECLARATIONS = 100

export type FacetDeclarationField = 'options' | 'filter' | 'parameter'

/** How the "Declare a facet" form labels each field; messages name the field by it. */
export const FACET_FIELD_LABELS: Record<FacetDeclarationField, string> = {
  options: 'Options endpoint',
  filter: 'Filter endpoint',
  parameter: 'Parameter',
}

export interface FacetDeclarationProblem {
  field: FacetDeclarationField
  /** The rule broken, without the field's name (the form and the file each name it their way). */
  message: string
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Why a name cannot be an endpoint or parameter name in a URL path, or null. */
function nameProblem(name: string): string | null {
  if (name.trim() === '') return 'is empty'
  if (name.trim() !== name) return 'has spaces at its start or end'
  if (CONTROL.test(name)) return 'holds a control character, which no endpoint or parameter name has'
  // Dot segments are resolved by every URL parser on the way, and a lone surrogate has no UTF-8 form.
  if (name === '.' || name === '..') return `"${name}" cannot be sent: URL normalisation removes "." and ".." path segments`
  if (SURROGATE.test(name)) return 'holds an unpaired surrogate, which cannot be sent in a URL'
  return null
}

/**
 * What is wrong with the declaration at `index` of a connection's list: its
 * names (each must travel as one URL path segment), a filter that is the
 * options endpoint itself, and a facet (or filter endpoint) declared twice.
 * The same rules for the form and for a workspace file from elsewhere.
 */
export function facetDeclarationProblems(all: readonly Pick<FacetDeclaration, 'options' | 'filter' | 'parameter'>[], index: number): FacetDeclarationProblem[] {
  const declaration = all[index]!
  const problems: FacetDeclarationProblem[] = []
  const filter = declaration.filter ?? declaration.options + ':FILTER'
  const check = (field: FacetDeclarationField, value: string | undefined) => {
    const problem = value === undefined ? null : nameProblem(value)
    if (problem) problems.push({ field, message: problem })
    return problem === null
  }
  const optionsOk = check('options', declaration.options)
  const filterOk = check('filter', declaration.filter)
  check('parameter', declaration.parameter)
  if (optionsOk && filterOk && filter === declaration.options) {
    problems.push({ field: 'filter', message: 'is the options endpoint itself; the filter is its partner endpoint (by default the options endpoint + ":FILTER")' })
  }
  const earlier = all.slice(0, index)
  if (optionsOk && earlier.some((other) => other.options === declaration.options)) {
    problems.push({ field: 'options', message: `the facet "${declaration.options}" is declared already` })
  } else if (filterOk && earlier.some((other) => (other.filter ?? other.options + ':FILTER') === filter)) {
    problems.push({ field: 'filter', message: `"${filter}" is the filter of another declared facet already` })
  }
  return problems
}
