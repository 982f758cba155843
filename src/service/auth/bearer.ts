import { ServiceError } from '../refusal'
import type { AccountDirectory } from './accounts'
import type { TokenStore } from './tokens'

/** Guards a protected API: a valid token, of this workspace, of an account allowed to query. */

const INVALID = 'Invalid or expired token: request a new one from the auth host'

function invalidToken(detail: string): ServiceError {
  return new ServiceError(401, `${INVALID} (${detail})`, { 'WWW-Authenticate': 'Bearer error="invalid_token"' })
}

export function authorize(header: string | undefined, workspace: string, tokens: TokenStore, accounts: AccountDirectory): void {
  if (header === undefined || header.trim() === '') throw invalidToken('no Authorization header was sent')
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header)
  if (!match) throw invalidToken('the Authorization header must be "Bearer <token>"')
  const check = tokens.check(match[1]!)
  if (!check.ok) throw invalidToken('the token is unknown, expired or revoked')
  if (check.token.workspace !== workspace) {
    throw new ServiceError(403, `The token was issued for the workspace "${check.token.workspace}", not "${workspace}"`)
  }
  const account = accounts.get(check.token.clientId)
  if (!account || !account.roles.includes('API Usage')) {
    throw new ServiceError(403, `The account "${check.token.clientId}" lacks the API Usage role that the Query API requires`)
  }
}
