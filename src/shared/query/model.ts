import { z } from 'zod'

/**
 * One Query API request, independent of any host: the single model behind the
 * chain editor, saved workspaces, "paste a URL", history and the command line.
 * Structural types only; the service's rules (bounds, duplicates, rdf) are
 * checked by validation so that every problem can be reported at once.
 */

export const RESPONSE_TYPES = ['results', 'statistics', 'count'] as const
export const FORMATS = ['json', 'xml', 'rdf', 'csv', 'xlsx'] as const
/** Canonical order in which options are written to the query string. */
export const OPTION_ORDER = ['config', 'count', 'offset', 'format', 'level', 'homogeneousArrays', 'cutoff'] as const

export const ResponseTypeSchema = z.enum(RESPONSE_TYPES)
export const FormatSchema = z.enum(FORMATS)

export const ContextStepSchema = z
  .object({
    /** `/c/<name>/<value>` pairs at this place in the path, in order. */
    context: z.record(z.string(), z.string()),
  })
  .strict()

export const EndpointStepSchema = z
  .object({
    endpoint: z.string(),
    parameters: z.record(z.string(), z.string()),
  })
  .strict()

export const StepSchema = z.union([EndpointStepSchema, ContextStepSchema])

export const OptionsSchema = z
  .object({
    config: z.string().optional(),
    count: z.number().optional(),
    offset: z.number().optional(),
    format: z.string().optional(),
    level: z.number().optional(),
    homogeneousArrays: z.boolean().optional(),
    cutoff: z.number().optional(),
  })
  .strict()

export const QueryRequestSchema = z
  .object({
    version: z.string().optional(),
    workspace: z.string(),
    api: z.string(),
    steps: z.array(StepSchema),
    responseType: ResponseTypeSchema,
    options: OptionsSchema,
  })
  .strict()

export type ResponseType = z.infer<typeof ResponseTypeSchema>
export type Format = z.infer<typeof FormatSchema>
export type ContextStep = z.infer<typeof ContextStepSchema>
export type EndpointStep = z.infer<typeof EndpointStepSchema>
export type Step = z.infer<typeof StepSchema>
export type QueryOptions = z.infer<typeof OptionsSchema>
export type QueryRequest = z.infer<typeof QueryRequestSchema>
export type OptionName = (typeof OPTION_ORDER)[number]

export function isEndpointStep(step: Step): step is EndpointStep {
  return 'endpoint' in step
}
