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
