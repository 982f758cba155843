import { z } from 'zod'
import { ErrorCodeSchema } from '../ipc/errors'
import { QueryRequestSchema } from '../query/model'

/** One query run as the History keeps it: what was sent (never a token) and how it went. */
export const HistoryEntrySchema = z.object({
  id: z.string(),
  /** ISO time the run started. */
  at: z.string(),
  connectionId: z.string(),
  connectionName: z.string(),
  api: z.string(),
  config: z.string(),
  /** The request URL exactly as sent; the runner's URLs never carry a token. */
  url: z.string(),
  responseType: z.string(),
  /** The HTTP status of an answer; null when the run failed before one. */
  status: z.number().int().nullable(),
  error: z.object({ code: ErrorCodeSchema, message: z.string() }).nullable(),
  /** The total the answer carries (statistics, count, results,count); else null. */
  total: z.number().int().nullable(),
  /** The items (rows, options) the run's answers held, over all its pages. */
  itemCount: z.number().int().nullable(),
  /** The pages of rows the run covers: its first and each that Load more added to it (entries of older versions: 1). */
  pages: z.number().int().min(1).default(1),
  /** The time the run's requests were on their way (pages asked at once count once). */
  durationMs: z.number(),
  /** The request model, so "Open in editor" restores it. */
  request: QueryRequestSchema,
})

export type HistoryEntry = z.infer<typeof HistoryEntrySchema>
