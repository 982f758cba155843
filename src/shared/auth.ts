import { z } from 'zod'

/** `POST {auth_url}/api/auth` body, exactly as the seed gives it. */
export const TokenRequestBodySchema = z
  .object({
    WorkspaceName: z.string(),
    ClientId: z.string(),
    ClientSecret: z.string(),
    ForceReauth: z.boolean(),
  })
  .strict()

export type TokenRequestBody = z.infer<typeof TokenRequestBodySchema>

/** What the embedded service answers; real deployments vary (see main/auth/token-reply). */
export const TokenReplySchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number(),
})
export type TokenReply = z.infer<typeof TokenReplySchema>

/**
 * How a connection asks for tokens: `json` is the seed's `POST {auth_url}/api/auth`
 * with a JSON body; `oauth` is OAuth 2.0 client credentials,
 * `POST {auth_url}/oauth/token`, form-encoded, as the official client libraries do.
 */
export const TOKEN_REQUEST_KINDS = ['json', 'oauth'] as const
export type TokenRequestKind = (typeof TOKEN_REQUEST_KINDS)[number]

export const OAUTH_TOKEN_PATH = '/oauth/token'
export const OAUTH_GRANT_TYPE = 'client_credentials'

/** An OAuth error answer (RFC 6749 section 5.2). */
export const OAuthErrorBodySchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
})
