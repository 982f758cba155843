import { z } from 'zod'
import { ErrorCodeSchema } from '../ipc/errors'
import { ConnectionInputSchema } from './connection-input'

/** A saved connection as the window sees it (never its secret or token), and what "Test connection" reports. */

const Id = z.string().min(1).max(200)

export const ConnectionViewSchema = ConnectionInputSchema.extend({
  id: Id,
  /** Built-in connections (the demo) cannot be edited or deleted. */
  builtIn: z.boolean(),
  hasSecret: z.boolean(),
  /** Token requests in the last hour, so the user sees the quota coming. */
  tokenRequestsLastHour: z.number().int(),
  /** Where this connection's secret and token are kept. */
  secretStore: z.enum(['os', 'memory']).optional(),
  /** Epoch ms when the cached token expires; null when none is cached (never the token itself). */
  tokenExpiresAt: z.number().nullable().optional(),
  /** Epoch ms before which no token request is sent (after a 429 with Retry-After); null when not blocked. */
  retryAt: z.number().nullable().optional(),
  /** Said once, in the reply of a save: e.g. that the stored secret was removed because the auth URL moved. */
  notice: z.string().optional(),
})

/**
 * One step of "Test connection": what was tried, whether it worked, and what
 * failed. In order: `access` (the API's root without a token, as the official
 * TypeScript client probes it: public or not), `token`, `description` (the
 * root with the token: our API description, or what its absence means) and
 * `status` (the status route `…/api/<api>/status?config=…`).
 */
export const CONNECTION_CHECK_STEPS = ['access', 'token', 'description', 'status'] as const

export const ConnectionCheckSchema = z.object({
  step: z.enum(CONNECTION_CHECK_STEPS),
  ok: z.boolean(),
  /** A sentence for the user: what worked, or exactly what failed (DNS, refused, TLS, 401, 403, 404, 429, timeout). */
  message: z.string(),
  code: ErrorCodeSchema.optional(),
  status: z.number().int().optional(),
  retryAfterSeconds: z.number().optional(),
  ms: z.number(),
})

export const ConnectionTestSchema = z.object({
  ok: z.boolean(),
  checks: z.array(ConnectionCheckSchema),
  connection: ConnectionViewSchema,
})

/** "Test connection" on the form as it stands: the same checks, and nothing saved, so no profile to show. */
export const ConnectionCheckResultSchema = z.object({
  ok: z.boolean(),
  checks: z.array(ConnectionCheckSchema),
})

export type ConnectionView = z.infer<typeof ConnectionViewSchema>
export type ConnectionCheck = z.infer<typeof ConnectionCheckSchema>
export type ConnectionTest = z.infer<typeof ConnectionTestSchema>
export type ConnectionCheckResult = z.infer<typeof ConnectionCheckResultSchema>
