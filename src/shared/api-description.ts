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
