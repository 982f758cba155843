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
