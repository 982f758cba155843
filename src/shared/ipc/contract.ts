import { z } from 'zod'
import { ApiDescriptionSchema } from '../api-description'
import { TOKEN_REQUEST_KINDS } from '../auth'
import { QueryRequestSchema } from '../query/model'
import type { Channel } from './channels'
import { ErrorCodeSchema, IpcErrorSchema } from './errors'

/**
 * The one contract between renderer and main: a request and a reply schema per
 * channel. Main validates every incoming message against it; the preload
 * exposes exactly these channels; the renderer's client is typed from it.
 * Strict objects and bounded strings: a malformed or oversized message is a
 * validation error, never a crash.
 */

const Id = z.string().min(1).max(200)
const ShortText = z.string().max(2_000)
const UrlText = z.string().max(8_000)

export const KeychainInfoSchema = z.object({
  /** `os`: the OS keychain; `memory`: no keychain answered, secrets live for this run only. */
  kind: z.enum(['os', 'memory']),
  detail: z.string(),
})

export const AppInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'browser']),
  keychain: KeychainInfoSchema,
  /** The embedded demo service, when this launch started one. */
  demo: z.object({ connectionId: Id, workspace: z.string() }).nullable(),
  /** The connection last chosen (`connections:use`), if it still exists: the app reopens on it. */
  lastConnectionId: Id.nullable(),
  /** Things the user must be told at start-up (e.g. a settings file set aside). */
  notices: z.array(z.string()),
})

export const ConnectionInputSchema = z
  .object({
    id: Id.optional(),
    name: z.string().min(1).max(200),
    authUrl: UrlText,
    queryUrl: UrlText,
    version: z.string().max(20).optional(),
    workspace: z.string().min(1).max(500),
    api: z.string().max(500),
    config: z.string().max(500).optional(),
    clientId: z.string().max(2_000),
    /** Advanced: the whole of one request (token or query) must be done within this many seconds; default 60. */
    deadlineSeconds: z.number().optional(),
    /** "Token request": the seed's JSON `POST <auth URL>/api/auth` (json, the default) or OAuth 2.0 client credentials (`POST <auth URL>/oauth/token`). */
    tokenRequest: z.enum(TOKEN_REQUEST_KINDS).optional(),
  })
  .strict()

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

/** One step of "Test connection": what was tried, whether it worked, and what failed. */
export const ConnectionCheckSchema = z.object({
  step: z.enum(['token', 'description']),
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

const SecretText = z.string().min(1).max(4_096)

export const TimingsSchema = z.object({
  /** Milliseconds from the start of the request. */
  connectMs: z.number().nullable(),
  firstByteMs: z.number(),
  totalMs: z.number(),
})

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
  itemCount: z.number().int().nullable(),
  durationMs: z.number(),
  /** The request model, so "Open in editor" restores it. */
  request: QueryRequestSchema,
})

export const contract = {
  'app:info': { request: z.object({}).strict(), reply: AppInfoSchema },
  'connections:list': { request: z.object({}).strict(), reply: z.array(ConnectionViewSchema) },
  'connections:save': { request: ConnectionInputSchema, reply: ConnectionViewSchema },
  'connections:delete': { request: z.object({ id: Id }).strict(), reply: z.object({ deleted: z.boolean() }) },
  'secrets:set': {
    request: z.object({ connectionId: Id, secret: SecretText }).strict(),
    reply: z.object({ stored: z.enum(['os', 'memory']) }),
  },
  'secrets:clear': { request: z.object({ connectionId: Id }).strict(), reply: z.object({ cleared: z.boolean() }) },
  /** Requests a token (ForceReauth false, past the cache) and the API description; says exactly what failed. */
  'connections:test': { request: z.object({ connectionId: Id }).strict(), reply: ConnectionTestSchema },
  /**
   * "Test connection" in the form: tests what the form holds without saving
   * anything. A secret typed in the form is used for this test only; without
   * one, a saved profile's stored secret is used if the form's auth URL has
   * the origin it was entered for. The token it gets is thrown away.
   */
  'connections:check': {
    request: z.object({ connection: ConnectionInputSchema, secret: SecretText.optional() }).strict(),
    reply: ConnectionCheckResultSchema,
  },
  /** Saves a copy of a profile (the demo too) and copies its client secret inside the main process; replies with the copy. */
  'connections:duplicate': { request: z.object({ connectionId: Id }).strict(), reply: ConnectionViewSchema },
  /** Records the connection the user chose, so the app reopens on it. */
  'connections:use': { request: z.object({ connectionId: Id }).strict(), reply: z.object({ lastConnectionId: Id }) },
  /** Asks for a new token with ForceReauth true ("Re-authenticate"). */
  'connections:reauth': { request: z.object({ connectionId: Id }).strict(), reply: ConnectionViewSchema },
  'api:describe': {
    request: z.object({ connectionId: Id, api: z.string().min(1).max(500) }).strict(),
    /** null: the server has no description route (404); the UI falls back to free-form entry. */
    reply: ApiDescriptionSchema.nullable(),
  },
  'query:run': {
    request: z
      .object({
        connectionId: Id,
        /** Chosen by the renderer so that it can cancel this run. */
        requestId: Id,
        request: QueryRequestSchema,
        /** Bypass the short-lived cache of identical requests ("Run again"). */
        fresh: z.boolean().optional(),
        /** Asked alongside the user's run (its statistics, facet counts): not recorded in History. */
        companion: z.boolean().optional(),
      })
      .strict(),
    reply: QueryReplySchema,
  },
  'query:cancel': {
    request: z.object({ requestId: Id }).strict(),
    reply: z.object({ cancelled: z.boolean() }),
  },
  /** Recorded runs, newest first; `text` keeps those whose connection, API, config, URL or status contains it (any case). */
  'history:list': {
    request: z.object({ text: z.string().max(2_000).optional(), limit: z.number().int().min(1).max(1_000).optional() }).strict(),
    reply: z.array(HistoryEntrySchema),
  },
  'history:clear': { request: z.object({}).strict(), reply: z.object({ cleared: z.number().int() }) },
} satisfies Record<Channel, { request: z.ZodType; reply: z.ZodType }>

export type Contract = typeof contract
export type RequestOf<C extends Channel> = z.input<Contract[C]['request']>
export type ReplyOf<C extends Channel> = z.output<Contract[C]['reply']>

export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: z.infer<typeof IpcErrorSchema> }

/** What the preload exposes as `window.explorer` and the browser host mimics. */
export interface ExplorerBridge {
  invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<IpcResult<ReplyOf<C>>>
}

export type AppInfo = z.infer<typeof AppInfoSchema>
export type ConnectionInput = z.infer<typeof ConnectionInputSchema>
export type ConnectionView = z.infer<typeof ConnectionViewSchema>
export type QueryReply = z.infer<typeof QueryReplySchema>
export type Timings = z.infer<typeof TimingsSchema>
export type ConnectionCheck = z.infer<typeof ConnectionCheckSchema>
export type ConnectionTest = z.infer<typeof ConnectionTestSchema>
export type ConnectionCheckResult = z.infer<typeof ConnectionCheckResultSchema>
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>
