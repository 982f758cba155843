import { TokenRequestBodySchema, type TokenReply, type TokenRequestBody } from '../../shared/auth'
import { ServiceError, badRequest } from '../refusal'
import type { Account, AccountDirectory } from './accounts'
import type { TokenQuota } from './quota'
import type { TokenStore } from './tokens'

/**
 * `POST {auth_url}/api/auth` (SERVICE-CONTRACT "Authentication"): checks the
 * body field by field, the credentials, the workspace, then the quota; with
 * ForceReauth false a still-valid token is handed out again.
 */

export interface TokenService {
  accounts: AccountDirectory
  tokens: TokenStore
  quota: TokenQuota
  workspaces: ReadonlySet<string>
}

const FIELDS = ['WorkspaceName', 'ClientId', 'ClientSecret', 'ForceReauth'] as const

function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}

/** Every missing or mistyped field is named, so one answer lists all the fixes. */
export function readTokenRequest(body: unknown): TokenRequestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(`The request body must be a JSON object with ${FIELDS.join(', ')}, not ${describeType(body)}`)
  }
  const record = body as Record<string, unknown>
  const problems: string[] = []
  for (const field of FIELDS) {
    const value = record[field]
    if (value === undefined) {
      problems.push(`${field} is missing`)
      continue
    }
    const expected = field === 'ForceReauth' ? 'a boolean' : 'a string'
    if (!TokenRequestBodySchema.shape[field].safeParse(value).success) problems.push(`${field} must be ${expected}, not ${describeType(value)}`)
  }
  if (problems.length > 0) throw badRequest(`The token request is invalid: ${problems.join('; ')}`)
  return {
    WorkspaceName: record.WorkspaceName as string,
    ClientId: record.ClientId as string,
    ClientSecret: record.ClientSecret as string,
    ForceReauth: record.ForceReauth as boolean,
  }
}

export function answerTokenRequest(service: TokenService, request: TokenRequestBody): TokenReply {
  const account = service.accounts.authenticate(request.ClientId, request.ClientSecret)
  if (!account) throw new ServiceError(401, INVALID_CLIENT)
  if (!belongs(service, account, request.WorkspaceName)) throw new ServiceError(403, notInWorkspace(account, request.WorkspaceName))
  return grantToken(service, account, request.WorkspaceName, request.ForceReauth ? 'new' : 'reuse')
}

export const INVALID_CLIENT = 'Invalid client credentials: no account has this client id and secret'

export function belongs(service: TokenService, account: Account, workspace: string): boolean {
  return service.workspaces.has(workspace) && account.workspaces.includes(workspace)
}

export function notInWorkspace(account: Account, workspace: string): string {
  return `The account "${account.clientId}" does not belong to the workspace "${workspace}"`
}

export class QuotaExceeded extends ServiceError {
  constructor(
    account: Account,
    workspace: string,
    readonly retryAfterSeconds: number,
  ) {
    super(
      429,
      `Token request quota exceeded for account "${account.clientId}" in workspace "${workspace}"; reuse the token you have, or retry in ${retryAfterSeconds} seconds`,
      { 'Retry-After': String(retryAfterSeconds) },
    )
  }
}

/**
 * Hands out a token after the quota allows it; both token routes come here,
 * so they share accounts, tokens and quota. `reuse` (ForceReauth false) gives
 * the still-valid current token; `new` (ForceReauth true) revokes it and
 * issues another; `additional` (OAuth) issues another and leaves the old one
 * valid until it expires, as OAuth servers do.
 */
export function grantToken(service: TokenService, account: Account, workspace: string, how: 'reuse' | 'new' | 'additional'): TokenReply {
  const decision = service.quota.take(`${account.clientId}\u0000${workspace}`)
  if (!decision.allowed) throw new QuotaExceeded(account, workspace, decision.retryAfterSeconds)
  const existing = how === 'reuse' ? service.tokens.existing(account, workspace) : null
  const token = existing ?? service.tokens.issue(account, workspace, { revokePrevious: how !== 'additional' })
  return { access_token: token.token, token_type: 'Bearer', expires_in: service.tokens.remainingSeconds(token) }
}
