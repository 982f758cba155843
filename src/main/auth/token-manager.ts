import { ExplorerError } from '../../shared/ipc/errors'
import type { TokenRequestBody } from '../../shared/auth'
import type { SecretStore } from '../credentials/secret-store'
import type { HttpClient } from '../query/http-client'
import { readTokenReply, type IssuedToken } from './token-reply'
import { messageOf, parseJson } from '../query/response-body'

/** Tokens are renewed this long before they expire, so a query never races expiry. */
export const RENEW_BEFORE_MS = 30_000
const HOUR_MS = 3_600_000

/** One M2M account on one workspace: the unit that owns a token and a quota. */
export interface TokenAccount {
  /** Stable key for the cache and the quota count (the connection id). */
  key: string
  authUrl: string
  workspace: string
  clientId: string
  secret(): Promise<string | null>
  /** Where this account's token is cached: the OS keychain, or memory. */
  cache: SecretStore
}

export function tokenCacheKey(key: string): string {
  return `token:${key}`
}

/**
 * Requests, caches and reuses access tokens. One token request at a time per
 * account: concurrent queries wait for the one under way.
 */
export class TokenManager {
  private readonly inFlight = new Map<string, Promise<IssuedToken>>()
  private readonly memo = new Map<string, IssuedToken>()
  private readonly requestTimes = new Map<string, number[]>()
  private readonly blockedUntil = new Map<string, number>()

  constructor(
    private readonly http: HttpClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token valid for at least RENEW_BEFORE_MS more, from cache or a new request. */
  async token(account: TokenAccount, options: { force?: boolean } = {}): Promise<string> {
    if (!options.force) {
      const cached = await this.cached(account)
      if (cached) return cached.token
    }
    let pending = this.inFlight.get(account.key)
    if (!pending) {
      pending = this.request(account, options.force ?? false).finally(() => this.inFlight.delete(account.key))
      this.inFlight.set(account.key, pending)
    }
    return (await pending).token
  }

  /** Forget the cached token (after a 401), so the next call requests a new one. */
  async forget(account: TokenAccount): Promise<void> {
    this.memo.delete(account.key)
    await account.cache.delete(tokenCacheKey(account.key)).catch(() => false)
  }

  requestsLastHour(key: string): number {
    return this.recentRequests(key).length
  }

  private recentRequests(key: string): number[] {
    const since = this.now() - HOUR_MS
    const times = (this.requestTimes.get(key) ?? []).filter((time) => time > since)
    this.requestTimes.set(key, times)
    return times
  }

  private async cached(account: TokenAccount): Promise<IssuedToken | null> {
    let token = this.memo.get(account.key)
    if (!token) {
      const stored = await account.cache.get(tokenCacheKey(account.key)).catch(() => null)
      token = stored ? (parseCachedToken(stored) ?? undefined) : undefined
      if (token) this.memo.set(account.key, token)
    }
    return token && token.expiresAt - RENEW_BEFORE_MS > this.now() ? token : null
  }

  private async request(account: TokenAccount, force: boolean): Promise<IssuedToken> {
    const blocked = this.blockedUntil.get(account.key) ?? 0
    if (blocked > this.now()) {
      throw quotaError(Math.ceil((blocked - this.now()) / 1000))
    }
    const secret = await account.secret()
    if (!secret) {
      throw new ExplorerError('auth', 'No client secret is stored for this connection. Enter it in the connection form.')
    }
    const body: TokenRequestBody = {
      WorkspaceName: account.workspace,
      ClientId: account.clientId,
      ClientSecret: secret,
      ForceReauth: force,
    }
    this.recentRequests(account.key).push(this.now())
    const response = await this.http.request({
      url: `${account.authUrl.replace(/\/+$/, '')}/api/auth`,
      method: 'POST',
      headers: { 'content-type': 'application/json-patch+json', accept: '*/*' },
      body: JSON.stringify(body),
    })
    if (response.status === 429) {
      const retryAfter = retryAfterSeconds(response.headers['retry-after'])
      this.blockedUntil.set(account.key, this.now() + retryAfter * 1000)
      throw quotaError(retryAfter)
    }
    if (response.status >= 400) {
      const reason = messageOf(response.body) ?? `status ${response.status}`
      const code = response.status === 401 || response.status === 403 ? 'auth' : 'http'
      throw new ExplorerError(code, `The token request was refused (${response.status}): ${reason}`, {
        status: response.status,
      })
    }
    const issued = readTokenReply(parseJson(response.body, 'token reply'), this.now())
    this.memo.set(account.key, issued)
    await account.cache.set(tokenCacheKey(account.key), JSON.stringify(issued)).catch(() => undefined)
    return issued
  }
}

function parseCachedToken(text: string): IssuedToken | null {
  try {
    const value = JSON.parse(text) as Partial<IssuedToken>
    return typeof value.token === 'string' && typeof value.expiresAt === 'number'
      ? { token: value.token, expiresAt: value.expiresAt }
      : null
  } catch {
    return null
  }
}

function retryAfterSeconds(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds)
  const date = value ? Date.parse(value) : NaN
  return Number.isNaN(date) ? 60 : Math.max(1, Math.ceil((date - Date.now()) / 1000))
}

function quotaError(seconds: number): ExplorerError {
  return new ExplorerError(
    'quota',
    `The token request quota is used up. You may retry in ${seconds} s.`,
    { status: 429, retryAfterSeconds: seconds },
  )
}
