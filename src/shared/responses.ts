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

/** `results,count`: what the real backend answers and the client libraries' types say, `[<results>, <statistics>]`. */
export const ResultsAndCountResponseSchema = z.tuple([ResultsResponseSchema, StatisticsResponseSchema])

/**
 * The entity view of `resultpage` and `resultitem` (the client libraries'
 * `ResultObject`): names to strings, numbers or nested objects. Read as any
 * JSON object, so a deployment's richer values still show.
 */
export const ResultObjectSchema = z.record(z.string(), z.unknown())

/** `resultpage`: a results page whose tuples hold entity views. */
export const ResultPageResponseSchema = z.looseObject({
  offset: z.number().int(),
  count: z.number().int(),
  type: z.array(z.string()).optional(),
  items: z.array(
    z.looseObject({
      rank: z.number().int(),
      probability: z.number(),
      tuple: z.union([z.array(ResultObjectSchema), z.record(z.string(), ResultObjectSchema)]),
    }),
  ),
})

/** One option of a facet: its id, how much weight it has (the embedded service: how many results), what a filter takes, and its label. */
export const FacetOptionSchema = z.looseObject({
  id: z.string(),
  score: z.number(),
  value: z.string(),
  /** Left out by some deployments: the id then stands for it. */
  title: z.string().optional(),
})

/**
 * `options/<facet>`: the facet (`id` is its options endpoint), the options
 * already selected and the options to choose from. Read as tolerantly as the
 * client libraries' own check (an `id` and a list of `options`): a missing
 * `title` is left out, a missing `selected` selects nothing.
 */
export const OptionsResponseSchema = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  selected: z.array(FacetOptionSchema).default(() => []),
  options: z.array(FacetOptionSchema),
})

export const ErrorBodySchema = z.looseObject({ message: z.string() })

export type TupleObject = z.infer<typeof TupleObjectSchema>
export type TupleValue = z.infer<typeof TupleValueSchema>
export type ResultItem = z.infer<typeof ResultItemSchema>
export type ResultsResponse = z.infer<typeof ResultsResponseSchema>
export type StatisticsResponse = z.infer<typeof StatisticsResponseSchema>
export type CountResponse = z.infer<typeof CountResponseSchema>
export type ResultsAndCountResponse = z.infer<typeof ResultsAndCountResponseSchema>
export type ResultObject = z.infer<typeof ResultObjectSchema>
export type ResultPageResponse = z.infer<typeof ResultPageResponseSchema>
export type FacetOption = z.infer<typeof FacetOptionSchema>
export type OptionsResponse = z.infer<typeof OptionsResponseSchema>
