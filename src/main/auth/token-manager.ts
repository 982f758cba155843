import { ExplorerError } from '../../shared/ipc/errors'
import { OAUTH_GRANT_TYPE, OAUTH_TOKEN_PATH, OAuthErrorBodySchema, type TokenRequestBody, type TokenRequestKind } from '../../shared/auth'
import type { HttpClient, HttpRequest } from '../http/http-client'
import type { SecretStore } from '../credentials/secret-store'
import { readTokenReply, type IssuedToken } from './token-reply'
import { messageOf, parseJson, scrubBody } from '../http/response-body'

/** Tokens are renewed this long before they expire, so a query never races expiry. */
export const RENEW_BEFORE_MS = 30_000
const HOUR_MS = 3_600_000

/** One M2M account on one workspace: the unit that owns a token and a quota. */
export interface TokenAccount {
  /** Stable key for the cached token (the connection id). */
  key: string
  authUrl: string
  /** The origin of the query URL: the only place this account's tokens are sent (and what a cached token is bound to). */
  queryOrigin: string
  workspace: string
  clientId: string
  /** The whole token request must be done within this time (the connection's advanced setting). */
  deadlineMs?: number | undefined
  /** How tokens are asked for: the seed's JSON `POST /api/auth` (the default) or OAuth 2.0 client credentials. */
  tokenRequest?: TokenRequestKind | undefined
  /** OAuth: sent as `audience`, exactly (tokenRequestOf). */
  audience?: string | undefined
  secret(): Promise<string | null>
  /** Where this account's token is cached: the OS keychain, or memory. */
  cache: SecretStore
}

/** What the UI may know about an account's token: never the token itself. */
export interface TokenStatus {
  requestsLastHour: number
  /** Epoch ms; null when no token is cached. */
  tokenExpiresAt: number | null
  /** Epoch ms before which no token request is sent (429 Retry-After); null when not blocked. */
  retryAt: number | null
}

/**
 * How to get a token: `cached` reuses one while it is valid; `check` asks the
 * auth host with ForceReauth false past our cache (Test connection); `force`
 * asks with ForceReauth true (Re-authenticate, and after a 401).
 */
export type TokenMode = 'cached' | 'check' | 'force'

/**
 * The token request fields of an account, from a connection's choice (JSON
 * when it has none). OAuth's audience is the connection's own Audience, else
 * its query URL exactly as held: the official clients send the base URL as
 * given, and auth servers (Auth0) match it to the byte, trailing slash included.
 */
export function tokenRequestOf(connection: {
  tokenRequest?: TokenRequestKind | undefined
  queryUrl: string
  audience?: string | undefined
}): Pick<TokenAccount, 'tokenRequest' | 'audience'> {
  if (connection.tokenRequest !== 'oauth') return { tokenRequest: 'json' }
  return { tokenRequest: 'oauth', audience: connection.audience || connection.queryUrl }
}

export function tokenCacheKey(key: string): string {
  return `token:${key}`
}

/** The server's quota counts per account and workspace (and auth host). */
function quotaKey(account: TokenAccount): string {
  return `${account.authUrl.replace(/\/+$/, '')}\n${account.workspace}\n${account.clientId}`
}

/**
 * The margin before expiry at which a token is renewed: 30 s, or half the
 * token's lifetime when that is shorter (a 10 s token is still used for 5 s).
 */
function renewMargin(token: IssuedToken): number {
  if (token.issuedAt === undefined) return RENEW_BEFORE_MS
  return Math.min(RENEW_BEFORE_MS, Math.max(0, (token.expiresAt - token.issuedAt) / 2))
}

/**
 * Requests, caches and reuses access tokens. One token request at a time per
 * account: concurrent queries wait for the one under way. Every token request
 * is counted per account for the last hour, and after a 429 none is sent
 * before its Retry-After.
 */
export class TokenManager {
  private readonly inFlight = new Map<string, { mode: TokenMode; promise: Promise<IssuedToken> }>()
  private readonly memo = new Map<string, IssuedToken>()
  private readonly requestTimes = new Map<string, number[]>()
  private readonly blockedUntil = new Map<string, number>()
  /** Accounts whose last token went to another query host: the next one must be a new token, not that one. */
  private readonly reissue = new Set<string>()
  /** The secret each account's last token request sent: a query host may echo it too (it may be the auth host). */
  private readonly sentSecrets = new Map<string, string>()

  constructor(
    private readonly http: HttpClient,
    private readonly now: () => number = Date.now,
    /** Told every token and secret it handles, so the logger can redact them. */
    private readonly onSensitive: (value: string) => void = () => undefined,
  ) {}

  /** A token for a query: the cached one while valid, else one new request shared by every caller. */
  async token(account: TokenAccount, mode: TokenMode = 'cached'): Promise<string> {
    return (await this.issued(account, mode)).token
  }

  /**
   * The token `token()` would give at once, without waiting: the one in
   * memory while it is valid and not near expiry, for this account's query
   * host. Null when anything else must be looked at (the keychain, a renewal,
   * a new host): then `token()` decides. Lets a query with a cached token go
   * out without three awaits.
   */
  readyToken(account: TokenAccount): string | null {
    const token = this.memo.get(account.key)
    if (!token || token.origin !== account.queryOrigin || this.reissue.has(account.key) || this.nearExpiry(token)) return null
    return token.token
  }

  async issued(account: TokenAccount, mode: TokenMode = 'cached'): Promise<IssuedToken> {
    if (mode === 'cached') {
      const cached = await this.cached(account)
      if (cached && !this.nearExpiry(cached)) return cached
      // A token close to expiry is still the one the server holds: ForceReauth
      // false would hand it back, so renewing it early needs ForceReauth true.
      if (cached && cached.expiresAt > this.now()) mode = 'force'
    }
    // ForceReauth false would hand back the token the old query host holds.
    if (this.reissue.has(account.key)) mode = 'force'
    const running = this.inFlight.get(account.key)
    if (running) {
      // Share the request under way when it gives what this caller needs;
      // otherwise wait for it to end: one token request at a time per account.
      if (mode === 'cached' || running.mode === mode || running.mode === 'force') return running.promise
      await running.promise.catch(() => undefined)
      return this.issued(account, mode)
    }
    const promise = this.request(account, mode === 'force').finally(() => {
      if (this.inFlight.get(account.key)?.promise === promise) this.inFlight.delete(account.key)
    })
    this.inFlight.set(account.key, { mode, promise })
    return promise
  }

  /**
   * After the Query API refused `rejected` (401): one new token with
   * ForceReauth true, shared by every query that saw the same refusal. A query
   * whose token was already replaced by another's renewal just uses the new one.
   */
  async renewAfterRejection(account: TokenAccount, rejected: string): Promise<string> {
    const running = this.inFlight.get(account.key)
    if (running) {
      const issued = await running.promise.catch(() => null)
      if (issued && issued.token !== rejected) return issued.token
    }
    const current = this.memo.get(account.key)
    if (current && current.token !== rejected && current.origin === account.queryOrigin && current.expiresAt > this.now()) return current.token
    if (this.memo.get(account.key)?.token === rejected) await this.forget(account)
    return this.token(account, 'force')
  }

  /** Forget the cached token, so the next call requests a new one. */
  async forget(account: TokenAccount): Promise<void> {
    this.memo.delete(account.key)
    await account.cache.delete(tokenCacheKey(account.key)).catch(() => false)
  }

  /** Drop what is known about a connection (it was deleted or its secret changed). */
  drop(key: string): void {
    this.memo.delete(key)
    this.sentSecrets.delete(key)
  }

  /** What an answer to a query with `token` is scrubbed of (scrubBody): the token, and the secret that earned the account its tokens. */
  sensitive(account: TokenAccount, token: string): string[] {
    const secret = this.sentSecrets.get(account.key)
    return secret === undefined ? [token] : [token, secret]
  }

  /** The connection's query host changed: its next token is a new one (ForceReauth), never the one the old host saw. */
  rebind(key: string): void {
    this.memo.delete(key)
    this.reissue.add(key)
  }

  async status(account: TokenAccount | null): Promise<TokenStatus> {
    if (!account) return { requestsLastHour: 0, tokenExpiresAt: null, retryAt: null }
    const cached = await this.cached(account)
    const blocked = this.blockedUntil.get(quotaKey(account)) ?? 0
    return {
      requestsLastHour: this.recentRequests(quotaKey(account)).length,
      tokenExpiresAt: cached?.expiresAt ?? null,
      retryAt: blocked > this.now() ? blocked : null,
    }
  }

  private recentRequests(key: string): number[] {
    const since = this.now() - HOUR_MS
    const times = (this.requestTimes.get(key) ?? []).filter((time) => time > since)
    this.requestTimes.set(key, times)
    return times
  }

  private nearExpiry(token: IssuedToken): boolean {
    return token.expiresAt - renewMargin(token) <= this.now()
  }

  private async cached(account: TokenAccount): Promise<IssuedToken | null> {
    let token = this.memo.get(account.key)
    if (!token) {
      const stored = await account.cache.get(tokenCacheKey(account.key)).catch(() => null)
      token = stored ? (parseCachedToken(stored) ?? undefined) : undefined
      if (token) {
        this.onSensitive(token.token)
        this.memo.set(account.key, token)
      }
    }
    if (token && token.origin !== account.queryOrigin) {
      // Issued while the profile's query URL pointed elsewhere: never sent to the new host.
      this.reissue.add(account.key)
      await this.forget(account)
      return null
    }
    return token && token.expiresAt > this.now() ? token : null
  }

  private async request(account: TokenAccount, force: boolean): Promise<IssuedToken> {
    const quota = quotaKey(account)
    const blocked = this.blockedUntil.get(quota) ?? 0
    if (blocked > this.now()) {
      throw quotaError(Math.ceil((blocked - this.now()) / 1000), blocked)
    }
    const secret = await account.secret().catch((error: unknown) => {
      if (error instanceof ExplorerError) throw error
      throw new ExplorerError('keychain', 'The client secret could not be read from the OS keychain (is it locked?).')
    })
    if (!secret) {
      throw new ExplorerError('auth', 'No client secret is stored for this connection. Enter it in the connection form.')
    }
    this.onSensitive(secret)
    this.sentSecrets.set(account.key, secret)
    const oauth = account.tokenRequest === 'oauth'
    const send = oauth ? oauthRequest(account, secret) : jsonRequest(account, secret, force)
    this.recentRequests(quota).push(this.now())
    const response = await this.http.request({
      ...send,
      ...(account.deadlineMs !== undefined ? { deadlineMs: account.deadlineMs } : {}),
    })
    if (response.status === 429) {
      const retryAfter = retryAfterSeconds(response.headers['retry-after'], this.now())
      const until = this.now() + retryAfter * 1000
      this.blockedUntil.set(quota, until)
      throw quotaError(retryAfter, until)
    }
    if (response.status >= 300) {
      const body = scrubBody(response.body, [secret])
      throw tokenRefusal(response.status, (oauth ? oauthMessageOf(body) : null) ?? messageOf(body), send.url)
    }
    const issued: IssuedToken = { ...readTokenReply(parseJson(response.body, 'token reply'), this.now()), origin: account.queryOrigin }
    this.onSensitive(issued.token)
    this.memo.set(account.key, issued)
    if (force) this.reissue.delete(account.key)
    await account.cache.set(tokenCacheKey(account.key), JSON.stringify(issued)).catch(() => undefined)
    return issued
  }
}

/** The seed's token request: `POST {auth_url}/api/auth` with a JSON body. */
function jsonRequest(account: TokenAccount, secret: string, force: boolean): HttpRequest & { url: string } {
  const body: TokenRequestBody = {
    WorkspaceName: account.workspace,
    ClientId: account.clientId,
    ClientSecret: secret,
    ForceReauth: force,
  }
  return {
    url: `${account.authUrl.replace(/\/+$/, '')}/api/auth`,
    method: 'POST',
    headers: { 'content-type': 'application/json-patch+json', accept: '*/*' },
    body: JSON.stringify(body),
  }
}

/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4): `POST {auth_url}/oauth/token`,
 * form-encoded, with the query URL as `audience`. It has no ForceReauth: an
 * OAuth server issues a new token on every request, so a renewal is the same
 * request.
 */
function oauthRequest(account: TokenAccount, secret: string): HttpRequest & { url: string } {
  const form = new URLSearchParams({ grant_type: OAUTH_GRANT_TYPE, client_id: account.clientId, client_secret: secret })
  if (account.audience) form.set('audience', account.audience)
  return {
    url: `${account.authUrl.replace(/\/+$/, '')}${OAUTH_TOKEN_PATH}`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
  }
}

/** An OAuth error answer as a sentence: its description, with the error code in parentheses. */
function oauthMessageOf(body: Buffer): string | null {
  try {
    const parsed = OAuthErrorBodySchema.safeParse(JSON.parse(body.toString('utf8')))
    if (!parsed.success) return null
    const { error, error_description: description } = parsed.data
    return (description ? `${description} (${error})` : error).slice(0, 1_000)
  } catch {
    return null
  }
}

function tokenRefusal(status: number, reason: string | null, authUrl: string): ExplorerError {
  const said = reason ? `: ${reason}` : ''
  switch (status) {
    case 401:
      return new ExplorerError('auth', `The token request was refused (401${said}). Check the client ID and secret.`, { status })
    case 403:
      return new ExplorerError('auth', `The token request was refused (403${said}). The account does not belong to this workspace or lacks the role.`, { status })
    case 404:
      return new ExplorerError('http', `The auth host answered 404 at ${authUrl}${said}. Check the auth URL.`, { status })
    default:
      if (status < 400) {
        return new ExplorerError('http', `The auth host answered ${status} (a redirect) at ${authUrl}; redirects are not followed with a client secret. Check the auth URL.`, { status })
      }
      return new ExplorerError('http', `The token request failed (${status}${said || ': no readable message'}).`, { status })
  }
}

function parseCachedToken(text: string): IssuedToken | null {
  try {
    const value = JSON.parse(text) as Partial<IssuedToken>
    return typeof value.token === 'string' && typeof value.expiresAt === 'number'
      ? {
          token: value.token,
          expiresAt: value.expiresAt,
          ...(typeof value.issuedAt === 'number' ? { issuedAt: value.issuedAt } : {}),
          ...(typeof value.origin === 'string' ? { origin: value.origin } : {}),
        }
      : null
  } catch {
    return null
  }
}

/** A server's Retry-After is believed within these bounds: a typo or a hostile server must not block an account for good. */
export const RETRY_AFTER_BOUNDS = { minSeconds: 1, maxSeconds: 3_600, defaultSeconds: 60 } as const

/** Seconds to wait after a 429: Retry-After as seconds or an HTTP date, clamped to 1 s – 1 h; anything unreadable counts as 60 s. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number {
  const { minSeconds, maxSeconds, defaultSeconds } = RETRY_AFTER_BOUNDS
  const value = (Array.isArray(header) ? header[0] : header)?.trim() ?? ''
  let seconds: number
  if (/^\d+(\.\d+)?$/.test(value)) seconds = Number(value)
  else if (/[a-z]/i.test(value) && !Number.isNaN(Date.parse(value))) seconds = (Date.parse(value) - now) / 1000
  else return defaultSeconds
  if (!Number.isFinite(seconds)) return maxSeconds
  return Math.min(maxSeconds, Math.max(minSeconds, Math.ceil(seconds)))
}

function quotaError(seconds: number, until: number): ExplorerError {
  const at = new Date(until).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' })
  return new ExplorerError(
    'quota',
    `The token request quota is used up (429). You may retry in ${seconds} s (at ${at}).`,
    { status: 429, retryAfterSeconds: seconds },
  )
}
