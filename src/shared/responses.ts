import { z } from 'zod'

/**
 * Shapes of the Query API's JSON answers (seed "Resources and their fields",
 * SERVICE-CONTRACT "Responses"). The embedded service writes them; the client
 * reads real deployments' answers through them, tolerating extra fields.
 */

/** A tuple element of type OBJ; attributes may nest objects when level > 1. */
export const TupleObjectSchema = z.looseObject({
  id: z.string(),
  class: z.array(z.string()),
  attributes: z.record(z.string(), z.unknown()).optional(),
})

/** A column of a tuple: an OBJ or a simple value (STRING, DATE, INTEGER, DOUBLE). */
export const TupleValueSchema = z.union([TupleObjectSchema, z.string(), z.number(), z.boolean(), z.null()])

export const ResultItemSchema = z.looseObject({
  rank: z.number().int(),
  probability: z.number(),
  /** An array, or with homogeneousArrays an object keyed by 1-based column number. */
  tuple: z.union([z.array(TupleValueSchema), z.record(z.string(), TupleValueSchema)]),
})

export const ResultsResponseSchema = z.looseObject({
  offset: z.number().int(),
  count: z.number().int(),
  type: z.array(z.string()),
  items: z.array(ResultItemSchema),
})

export const StatisticsResponseSchema = z.looseObject({
  total: z.number().int(),
  stats: z.array(z.looseObject({ cutoff: z.string(), numResults: z.number().int() })),
})

export const CountResponseSchema = z.looseObject({ total: z.number().int() })

export const ErrorBodySchema = z.looseObject({ message: z.string() })

export type TupleObject = z.infer<typeof TupleObjectSchema>
export type TupleValue = z.infer<typeof TupleValueSchema>
export type ResultItem = z.infer<typeof ResultItemSchema>
export type ResultsResponse = z.infer<typeof ResultsResponseSchema>
export type StatisticsResponse = z.infer<typeof StatisticsResponseSchema>
export type CountResponse = z.infer<typeof CountResponseSchema>
