import { z } from 'zod'
import { MetricSettingsSchema, ScaleSchema, scaleOf, settingsOf, type QuerySet } from './query-set'

/** A set as the workspace view lists it: what it is, without its queries and judgments (`sets:get` has them). */
export const SetSummarySchema = z.object({
  name: z.string(),
  /** The saved query it fills, by name; null when the set has a request of its own. */
  template: z.string().nullable(),
  notes: z.string(),
  queries: z.number().int(),
  judgments: z.number().int(),
  scale: ScaleSchema,
  settings: MetricSettingsSchema,
})

export type SetSummary = z.infer<typeof SetSummarySchema>

export function setSummary(set: QuerySet): SetSummary {
  return {
    name: set.name,
    template: set.query ?? null,
    notes: set.notes ?? '',
    queries: set.queries.length,
    judgments: set.judgments.length,
    scale: scaleOf(set),
    settings: settingsOf(set),
  }
}
