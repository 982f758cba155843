import { ExplorerError } from '../../shared/ipc/errors'

/** Without any lifetime in the reply, the contract says to assume five minutes. */
export const DEFAULT_LIFETIME_SECONDS = 300

export interface IssuedToken {
  token: string
  /** Epoch milliseconds. */
  expiresAt: number
  /** Epoch milliseconds when it was received; with expiresAt it gives the lifetime. */
  issuedAt?: number
  /** The origin of the query URL it was issued for: it is sent nowhere else. */
  origin?: string
}

/**
 * Reads a token reply the way real deployments write it: `access_token`,
 * `accessToken` or `token`; `expires_in`/`expiresIn` seconds, or `expires` as
 * epoch seconds or an ISO date; else a JWT's `exp`; else five minutes.
 */
export function readTokenReply(body: unknown, now: number): IssuedToken {
  if (typeof body !== 'object' || body === null) {
    throw new ExplorerError('bad_response', 'The token reply is not a JSON object.')
  }
  const reply = body as Record<string, unknown>
  const token = [reply.access_token, reply.accessToken, reply.token].find(
    (value): value is string => typeof value === 'string' && value.length > 0,
  )
  if (!token) {
    throw new ExplorerError('bad_response', 'The token reply holds no access_token, accessToken or token field.')
  }
  // A token goes into an Authorization header: CR, LF, spaces or non-ASCII there would break (or forge) the request.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new ExplorerError(
      'bad_response',
      "The auth host's token is malformed: it holds characters a token cannot have (control characters such as CR or LF, spaces or non-ASCII). Ask the service's administrator.",
    )
  }
  return { token, expiresAt: expiryOf(reply, token, now), issuedAt: now }
}

function expiryOf(reply: Record<string, unknown>, token: string, now: number): number {
  const seconds = asNumber(reply.expires_in) ?? asNumber(reply.expiresIn)
  if (seconds !== undefined) return now + seconds * 1000
  const expires = reply.expires
  if (typeof expires === 'number' || (typeof expires === 'string' && /^\d+$/.test(expires))) {
    return Number(expires) * 1000
  }
  if (typeof expires === 'string') {
    const date = Date.parse(expires)
    if (!Number.isNaN(date)) return date
  }
  const exp = jwtExpiry(token)
  if (exp !== undefined) return exp * 1000
  return now + DEFAULT_LIFETIME_SECONDS * 1000
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  return undefined
}

function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.')
  if (parts.length !== 3 || !parts[1]) return undefined
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { exp?: unknown }
    return typeof payload.exp === 'number' ? payload.exp : undefined
  } catch {
    return undefined
  }
}
