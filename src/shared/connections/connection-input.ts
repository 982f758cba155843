import { z } from 'zod'
import { TOKEN_REQUEST_KINDS } from '../auth'

/**
 * A connection profile as the user edits it (no secret: that goes to the
 * keychain on its own channel). Shared by the IPC contract, the settings file
 * and the workspace file, which describes connections without their secrets.
 */

const Id = z.string().min(1).max(200)
const UrlText = z.string().max(8_000)

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
    /**
     * Advanced, OAuth only: the `audience` of a token request. Left out, the
     * query URL exactly as typed (`https://rest.spinque.com/` keeps its slash),
     * as the official clients send it; auth servers match it exactly.
     */
    audience: UrlText.optional(),
  })
  .strict()

export type ConnectionInput = z.infer<typeof ConnectionInputSchema>
