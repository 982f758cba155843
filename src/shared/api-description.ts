import { z } from 'zod'

/** `GET …/<workspace>/api/<api>/`: our extension (SERVICE-CONTRACT "API description"). */

export const ENDPOINT_KINDS = ['search', 'filter', 'modifier', 'facet-options', 'facet-filter', 'item', 'list'] as const
export const DATA_TYPES = ['OBJ', 'STRING', 'DATE', 'INTEGER', 'DOUBLE', 'TUPLE_LIST'] as const

export const ParameterDescriptionSchema = z.looseObject({
  name: z.string(),
  type: z.enum(DATA_TYPES),
  /** Optional human hint shown beside the input; our service sets it. */
  description: z.string().optional(),
  required: z.boolean().optional(),
})

export const EndpointDescriptionSchema = z.looseObject({
  name: z.string(),
  kind: z.enum(ENDPOINT_KINDS),
  stackable: z.boolean(),
  parameters: z.array(ParameterDescriptionSchema),
  output: z.array(z.enum(DATA_TYPES)),
  description: z.string().optional(),
})

export const ApiDescriptionSchema = z.looseObject({
  workspace: z.string(),
  api: z.string(),
  public: z.boolean(),
  configs: z.array(z.string()),
  endpoints: z.array(EndpointDescriptionSchema),
})

export type EndpointKind = z.infer<typeof EndpointDescriptionSchema>['kind']
export type DataType = (typeof DATA_TYPES)[number]
export type ParameterDescription = z.infer<typeof ParameterDescriptionSchema>
export type EndpointDescription = z.infer<typeof EndpointDescriptionSchema>
export type ApiDescription = z.infer<typeof ApiDescriptionSchema>

/**
 * Why an API has no description in our format (SERVICE-CONTRACT "Real
 * deployments"): its route answered 404, refused us (401/403: not allowed to
 * read it), or answered JSON of another shape. Everything still works: the
 * window says what it could not learn and how to do without.
 */
export const DescriptionAbsenceSchema = z.object({
  reason: z.enum(['not-found', 'not-allowed', 'other-shape']),
  status: z.number().int(),
})

/** `api:learn`: the description, or why there is none. */
export const ApiLearningSchema = z.object({
  description: ApiDescriptionSchema.nullable(),
  absence: DescriptionAbsenceSchema.nullable(),
})

export type DescriptionAbsence = z.infer<typeof DescriptionAbsenceSchema>
export type ApiLearning = z.infer<typeof ApiLearningSchema>

/**
 * What the window says about an API without a description: what it could
 * not learn, and how to go on. `where` is the region saying it: the facets
 * panel, where facets are declared, or the chain, which points there.
 */
export function absenceSentence(absence: DescriptionAbsence, where: 'facets' | 'chain' = 'facets'): string {
  const why =
    absence.reason === 'not-found'
      ? `This API serves no description (${absence.status})`
      : absence.reason === 'not-allowed'
        ? `This API's description may not be read with this account (${absence.status})`
        : `This API's description route answered in another format (${absence.status}), not one this app reads`
  return where === 'facets'
    ? `${why}: endpoints are typed by name, and facets are declared here.`
    : `${why}: type endpoint and parameter names (those used before are offered), and declare facets in the Facets panel.`
}
