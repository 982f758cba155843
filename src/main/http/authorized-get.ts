import { ExplorerError } from '../../shared/ipc/errors'
import type { TokenAccount, TokenManager } from '../auth/token-manager'
import { originOf } from '../credentials/bound-secret'
import type { CancelHandle } from './cancel-handle'
import { header, type HttpClient, type HttpResponse } from './http-client'
import { scrubBody } from './response-body'
import { serviceError } from './error-answer'

/** How one GET is sent: its cancellation and its deadline. */
export interface SendOptions {
  signal?: AbortSignal | undefined
  /** The runner's own, cheaper cancellation (see CancelHandle). */
  cancel?: CancelHandle | undefined
  deadlineMs?: number | undefined
}

/** Same-origin redirects followed at most this many times; another origin never. */
const MAX_REDIRECTS = 3

/**
 * The GETs of the query runner with a connection's token: the token goes
 * only to its query origin, a 401 gets one ForceReauth renewal and one
 * replay, and redirects are followed within the same origin only.
 */
export class AuthorizedGet {
  private lastBearer: { token: string; headers: Record<string, string> } | null = null

  constructor(
    private readonly http: HttpClient,
    private readonly tokens: TokenManager,
  ) {}

  /**
   * GET with the account's token. On a 401 the token is renewed once with
   * ForceReauth and the request replayed once; a second 401 is an error, never
   * a loop. Redirects are followed only within the same origin.
   */
  get(url: string, account: TokenAccount | null, options: SendOptions = {}): Promise<HttpResponse> {
    return this.getFrom(url, account, options, 0)
  }

  private async getFrom(url: string, account: TokenAccount | null, options: SendOptions, redirects: number): Promise<HttpResponse> {
    return this.follow(url, await this.authorized(url, account, options), account, options, redirects)
  }

  /** The answer, or where a same-origin redirect leads (at most MAX_REDIRECTS times). */
  private follow(url: string, response: HttpResponse, account: TokenAccount | null, options: SendOptions, redirects: number): HttpResponse | Promise<HttpResponse> {
    const location = response.status >= 300 && response.status < 400 ? header(response, 'location') : ''
    if (!location) return response
    const next = resolveRedirect(url, location)
    if (redirects >= MAX_REDIRECTS) {
      throw new ExplorerError('http', `The service redirected the request more than ${MAX_REDIRECTS} times; stopped.`, { status: response.status })
    }
    return this.getFrom(next, account, options, redirects + 1)
  }

  /**
   * A query's GET: `get`, with the common case cut short. When the account's
   * token is ready in memory the request goes out at once, with no async
   * frame between the caller and undici (the runner's own bookkeeping is what
   * bench/query-client.ts weighs against bare undici); a 401 or a redirect
   * then goes on exactly as in `get`.
   */
  send(url: string, account: TokenAccount | null, options: SendOptions): Promise<HttpResponse> {
    const token = account && sameOrigin(url, account.queryOrigin) ? this.tokens.readyToken(account) : null
    if (account === null || token === null) return this.get(url, account, options)
    const request = { url, signal: options.signal, cancel: options.cancel, headers: this.bearer(token), deadlineMs: options.deadlineMs }
    return this.http.request(request).then((response) => {
      const first = scrubbed(response, this.tokens.sensitive(account, token))
      if (first.status !== 401) return this.follow(url, first, account, options, 0)
      return this.replay(url, account, options, token).then((second) => this.follow(url, second, account, options, 0))
    })
  }

  private async authorized(url: string, account: TokenAccount | null, send: SendOptions): Promise<HttpResponse> {
    const { signal, cancel: handle, deadlineMs } = send
    if (!account) return this.http.request({ url, signal, cancel: handle, headers: ACCEPT_ANY, deadlineMs })
    if (!sameOrigin(url, account.queryOrigin)) {
      const origin = originOf(url)
      throw new ExplorerError('auth', `The token of this connection is only sent to ${account.queryOrigin || 'its query URL'}; the request to ${origin || 'that address'} was not sent.`)
    }
    const token = this.tokens.readyToken(account) ?? (await this.tokens.token(account))
    const first = scrubbed(await this.http.request({ url, signal, cancel: handle, headers: this.bearer(token), deadlineMs }), this.tokens.sensitive(account, token))
    if (first.status !== 401) return first
    return this.replay(url, account, send, token)
  }

  /** After a 401: one token renewal (ForceReauth) and one replay; a second 401 is an error, never a loop. */
  private async replay(url: string, account: TokenAccount, send: SendOptions, rejected: string): Promise<HttpResponse> {
    const renewed = await this.tokens.renewAfterRejection(account, rejected)
    const request = { url, signal: send.signal, cancel: send.cancel, headers: this.bearer(renewed), deadlineMs: send.deadlineMs }
    const second = scrubbed(await this.http.request(request), this.tokens.sensitive(account, renewed))
    // The sentence and kind every 401 gets (error-answer.ts), as one with a token sent.
    if (second.status === 401) throw serviceError(second, header(second, 'content-type'), { tokenSent: true })
    return second
  }

  /** The headers of a request with this token: kept from the last request, since one token serves many queries. */
  private bearer(token: string): Record<string, string> {
    if (this.lastBearer?.token !== token) this.lastBearer = { token, headers: { authorization: `Bearer ${token}`, accept: '*/*' } }
    return this.lastBearer.headers
  }
}

const ACCEPT_ANY: Record<string, string> = { accept: '*/*' }

/**
 * True when `url` is on `origin`. The URLs the runner sends start with the
 * query URL, so a prefix test settles almost every case without parsing; any
 * other spelling (upper-case host, a default port written out) is parsed.
 */
function sameOrigin(url: string, origin: string): boolean {
  if (origin !== '' && url.startsWith(origin)) {
    const next = url.charCodeAt(origin.length)
    // "/", "?", "#" or the end: the origin is all of it (not http://host:80 for http://host:8080).
    if (Number.isNaN(next) || next === 47 || next === 63 || next === 35) return true
  }
  return originOf(url) === origin
}

/** A redirect target within the same origin, or an error that names where it wanted to go (never carrying the token). */
function resolveRedirect(from: string, location: string): string {
  let next: URL
  try {
    next = new URL(location, from)
  } catch {
    throw new ExplorerError('http', 'The service answered with a redirect to an address that is not a valid URL.')
  }
  const origin = new URL(from).origin
  if (next.origin !== origin) {
    throw new ExplorerError(
      'http',
      `The service redirected the request to another host (${next.origin}); it was not followed, so that the token stays with ${origin}. Check the query URL.`,
      { status: 302 },
    )
  }
  return next.href
}

/** The answer with every spelling of the token and the account's secret replaced (a host may echo either, base64'd or not). */
function scrubbed(response: HttpResponse, sensitive: readonly string[]): HttpResponse {
  const body = scrubBody(response.body, sensitive)
  return body === response.body ? response : { ...response, body }
}
