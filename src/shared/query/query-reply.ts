import { z } from 'zod'

/** How long a run took, in milliseconds from the start of the request. */
export const TimingsSchema = z.object({
  /** Milliseconds from the start of the request. */
  connectMs: z.number().nullable(),
  firstByteMs: z.number(),
  totalMs: z.number(),
})

/** What a query run gives back (`query:run`): the answer as received and how it went. */
export const QueryReplySchema = z.object({
  /** The request URL, exactly as sent, never carrying a token. */
  url: z.string(),
  status: z.number().int(),
  contentType: z.string(),
  bytes: z.number().int(),
  /** Parsed JSON for json answers; text for csv/xml/rdf; null for binary formats. */
  body: z.unknown(),
  timings: TimingsSchema,
  /** True when the answer came from the short-lived cache of identical requests. */
  cached: z.boolean(),
})

export type Timings = z.infer<typeof TimingsSchema>
export type QueryReply = z.infer<typeof QueryReplySchema>
