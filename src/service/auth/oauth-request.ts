import type { TokenReply } from '../../shared/auth'
import { OAUTH_GRANT_TYPE } from '../../shared/auth'
import { ServiceError, oauthError } from '../refusal'
import { INVALID_CLIENT, QuotaExceeded, belongs, grantToken, notInWorkspace, type TokenService } from './token-request'

/**
 * `POST {auth_url}/oauth/token` (SERVICE-CONTRACT "Authentication"): OAuth 2.0
 * client credentials, as the official client libraries ask for tokens. Same
 * accounts, tokens and quota as `/api/auth`; answers and errors in OAuth's
 * shapes (RFC 6749 sections 4.4 and 5.2).
 *
 * The form names no workspace: the account's own one is used (an M2M account
 * is made in one workspace). An account of several workspaces names one with
 * `workspace`, our extension. A request always gets a new token, as from an
 * OAuth server; the previous one stays valid until it expires.
 */

export interface OAuthRequest {
  clientId: string
  clientSecret: string
  /** The query URL the token is for, when the client sends one. */
  audience?: string
  workspace?: string
}

const FIELDS = ['grant_type', 'client_id', 'client_secret'] as const

/** Reads the form; every missing field is named, and a field given twice is refused (RFC 6749 section 3.2). */
export function readOAuthRequest(form: URLSearchParams): OAuthRequest {
  const problems: string[] = []
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) problems.push(`${name} is given more than once`)
  }
  for (const field of FIELDS) if (!form.get(field)) problems.push(`${field} is missing`)
  if (problems.length > 0) throw oauthError(400, 'invalid_request', `The token request is invalid: ${problems.join('; ')}`)
  const grant = form.get('grant_type')!
  if (grant !== OAUTH_GRANT_TYPE) {
    throw oauthError(400, 'unsupported_grant_type', `Only grant_type=${OAUTH_GRANT_TYPE} is supported here, not "${grant.slice(0, 100)}"`)
  }
  const request: OAuthRequest = { clientId: form.get('client_id')!, clientSecret: form.get('client_secret')! }
  const audience = form.get('audience')
  if (audience) request.audience = audience
  const workspace = form.get('workspace')
  if (workspace) request.workspace = workspace
  return request
}

/** The audience names the query URL a token is for; it must be ours (trailing slashes aside). */
function checkAudience(audience: string, queryUrl: string): void {
  const key = (text: string) => {
    try {
      const url = new URL(text)
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
    } catch {
      return null
    }
  }
  if (key(audience) !== null && key(audience) === key(queryUrl)) return
  throw oauthError(403, 'access_denied', `The audience "${audience.slice(0, 200)}" is not this service's query URL; tokens are issued for ${queryUrl}`)
}

export function answerOAuthRequest(service: TokenService, request: OAuthRequest, queryUrl: string): TokenReply {
  if (request.audience !== undefined) checkAudience(request.audience, queryUrl)
  const account = service.accounts.authenticate(request.clientId, request.clientSecret)
  if (!account) throw oauthError(401, 'invalid_client', INVALID_CLIENT)
  let workspace = request.workspace
  if (workspace === undefined) {
    if (account.workspaces.length !== 1) {
      throw oauthError(
        400,
        'invalid_request',
        `The account "${account.clientId}" belongs to several workspaces (${account.workspaces.join(', ')}); name one with workspace=<name>`,
      )
    }
    workspace = account.workspaces[0]!
  }
  if (!belongs(service, account, workspace)) throw oauthError(403, 'unauthorized_client', notInWorkspace(account, workspace))
  try {
    return grantToken(service, account, workspace, 'additional')
  } catch (error) {
    if (error instanceof QuotaExceeded) {
      throw oauthError(429, 'too_many_requests', error.message, { 'Retry-After': String(error.retryAfterSeconds) })
    }
    throw error instanceof ServiceError ? oauthError(error.status, 'server_error', error.message) : error
  }
}
