import { z } from 'zod'

/**
 * One Query API request, independent of any host: the single model behind the
 * chain editor, saved workspaces, "paste a URL", history and the command line.
 * Structural types only; the service's rules (bounds, duplicates, rdf) are
 * checked by validation so that every problem can be reported at once.
 */

/**
 * The response types of the Query API: the seed's `results` and `statistics`,
 * and those the official client libraries also request (SERVICE-CONTRACT
 * "URLs"). Each is the last path segment, except `options`, which is written
 * `/options/<facet>`: the request's `facet` names the facet options endpoint
 * (see QueryRequestSchema).
 */
export const RESPONSE_TYPES = ['results', 'statistics', 'count', 'results,count', 'resultpage', 'resultitem', 'options'] as const
export const FORMATS = ['json', 'xml', 'rdf', 'csv', 'xlsx'] as const
/** Canonical order in which options are written to the query string. */
export const OPTION_ORDER = [
  'config',
  'count',
  'offset',
  'format',
  'level',
  'homogeneousArrays',
  'cutoff',
  'rank',
  'column',
  'multiselect',
] as const

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
    /** May be left out of a model file (as in the official client's `Query`): no parameters. */
    parameters: z.record(z.string(), z.string()).default(() => ({})),
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
    /** resultitem: the 1-based rank of the item (default 1). */
    rank: z.number().optional(),
    /** resultitem: the 1-based column of that item's tuple (default 1). */
    column: z.number().optional(),
    /** options: list the facet's options as for a multiple selection (its own filter left out). */
    multiselect: z.boolean().optional(),
    /**
     * Options this client does not know (a deployment's own, such as
     * `dev_version=master`), by name, exactly as given: real deployments
     * ignore what they do not use, so they are kept, shown and sent back,
     * after the known ones, in this order (SERVICE-CONTRACT "Real deployments").
     */
    extra: z.record(z.string(), z.string()).optional(),
  })
  .strict()

export const QueryRequestSchema = z
  .object({
    version: z.string().optional(),
    workspace: z.string(),
    api: z.string(),
    steps: z.array(StepSchema),
    responseType: ResponseTypeSchema,
    /**
     * The facet options endpoint whose options a `responseType: "options"`
     * request asks for: the URL ends in `/options/<facet>`, after the chain
     * (which by convention leaves out that facet's own `:FILTER` step). Only
     * with that response type; validation reports it missing or misplaced.
     * A separate field, not part of `responseType`, so the type stays one of
     * a fixed set and the facet is an ordinary name (encoded like any other).
     */
    facet: z.string().optional(),
    /** May be left out of a model file: no options (every default). */
    options: OptionsSchema.default(() => ({})),
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
