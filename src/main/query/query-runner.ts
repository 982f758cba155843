import type { z } from 'zod'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryReply } from '../../shared/ipc/contract'
import type { QueryRequest, ResponseType } from '../../shared/query/model'
import { buildUrl } from '../../shared/query/url'
import { validateRequest } from '../../shared/query/validate'
import { CountResponseSchema, StatisticsResponseSchema } from '../../shared/responses'
import type { TokenAccount, TokenManager } from '../auth/token-manager'
import { originOf } from '../credentials/bound-secret'
import type { HttpClient, HttpResponse } from './http-client'
import { messageOf, parseJson, scrubBody } from './response-body'
import { ReplyCache, type ReplyCacheOptions } from './reply-cache'
import { resultsShapeProblem } from './results-shape'

/** Where a query goes: the non-secret part of a connection, and its account if it has one. */
export interface QueryTarget {
  /** The connection id: answers are shared only between requests of one connection. */
  key: string
  queryUrl: string
  version?: string | undefined
  account: TokenAccount | null
  /** The whole request must be done within this time (the connection's advanced setting). */
  deadlineMs?: number | undefined
}

/** Results pages are checked by hand (results-shape.ts), for speed; the same rules as ResultsResponseSchema. */
const BODY_SCHEMAS: Record<Exclude<ResponseType, 'results'>, z.ZodType> = {
  statistics: StatisticsResponseSchema,
  count: CountResponseSchema,
}

/** How one GET is sent: its cancellation and its deadline. */
export interface SendOptions {
  signal?: AbortSignal | undefined
  deadlineMs?: number | undefined
}

/** Same-origin redirects followed at most this many times; another origin never. */
const MAX_REDIRECTS = 3

interface SharedRun {
  promise: Promise<QueryReply>
  controller: AbortController
  waiters: number
}

/**
 * Sends Query API requests for the app: every request the renderer asks for
 * goes through here, so token handling, cancellation, sharing of identical
 * requests and error wording are in one place.
 */
export class QueryRunner {
  /** The cancel function of each waiting run, by request id. */
  private readonly running = new Map<string, () => void>()
  private readonly shared = new Map<string, SharedRun>()
  readonly cache: ReplyCache

  constructor(
    private readonly http: HttpClient,
    private readonly tokens: TokenManager,
    cacheOptions: ReplyCacheOptions = {},
  ) {
    this.cache = new ReplyCache(cacheOptions)
  }

  /**
   * Runs a query. An identical request of the same connection under way or
   * answered within the cache window shares that answer, unless `fresh`
   * ("Run again") asks for a new one.
   */
  async run(
    requestId: string,
    target: QueryTarget,
    request: QueryRequest,
    options: { fresh?: boolean; signal?: AbortSignal | undefined } = {},
  ): Promise<QueryReply> {
    const problems = validateRequest(request)
    if (problems.length > 0) {
      throw new ExplorerError('validation', problems.map((problem) => problem.message).join('\n'), { problems })
    }
    const url = buildUrl(target.queryUrl, { ...request, version: request.version ?? target.version })
    const key = `${target.key}\n${url}`
    if (!options.fresh) {
      const hit = this.cache.get(key)
      if (hit) return { ...hit, cached: true }
    }
    let run = options.fresh ? undefined : this.shared.get(key)
    if (!run) {
      const controller = new AbortController()
      const promise = this.get(url, target.account, { signal: controller.signal, deadlineMs: target.deadlineMs }).then((response) => readReply(url, request, response))
      const started: SharedRun = { promise, controller, waiters: 0 }
      run = started
      this.shared.set(key, started)
      promise.then(
        (reply) => this.cache.set(key, reply),
        () => undefined,
      ).finally(() => {
        if (this.shared.get(key) === started) this.shared.delete(key)
      })
    }
    // A waiter is cancelled by a plain callback: an AbortSignal's event
    // machinery costs more than the rest of a cached-token query's bookkeeping.
    let cancelWaiter!: () => void
    let cancelled = false
    const cancellation = new Promise<never>((_resolve, reject) => {
      cancelWaiter = () => {
        cancelled = true
        reject(new ExplorerError('cancelled', 'The request was cancelled.'))
      }
    })
    this.running.get(requestId)?.()
    this.running.set(requestId, cancelWaiter)
    // The caller went away (a closed tab, a destroyed window): it waits no more.
    const callerGone = () => cancelWaiter()
    if (options.signal?.aborted) cancelWaiter()
    else options.signal?.addEventListener('abort', callerGone, { once: true })
    run.waiters++
    try {
      return await Promise.race([run.promise, cancellation])
    } finally {
      options.signal?.removeEventListener('abort', callerGone)
      run.waiters--
      // The request itself stops only when nobody waits for it any more.
      if (cancelled && run.waiters === 0) run.controller.abort()
      if (this.running.get(requestId) === cancelWaiter) this.running.delete(requestId)
    }
  }

  cancel(requestId: string): boolean {
    const cancel = this.running.get(requestId)
    if (!cancel) return false
    this.running.delete(requestId)
    cancel()
    return true
  }

  /**
   * GET with the account's token. On a 401 the token is renewed once with
   * ForceReauth and the request replayed once; a second 401 is an error, never
   * a loop. Redirects are followed only within the same origin.
   */
  async get(url: string, account: TokenAccount | null, options: SendOptions = {}): Promise<HttpResponse> {
    let current = url
    for (let redirects = 0; ; redirects++) {
      const response = await this.authorized(current, account, options)
      const location = response.status >= 300 && response.status < 400 ? header(response, 'location') : ''
      if (!location) return response
      const next = resolveRedirect(current, location)
      if (redirects >= MAX_REDIRECTS) {
        throw new ExplorerError('http', `The service redirected the request more than ${MAX_REDIRECTS} times; stopped.`, { status: response.status })
      }
      current = next
    }
  }

  private async authorized(url: string, account: TokenAccount | null, send: SendOptions): Promise<HttpResponse> {
    const { signal } = send
    const deadline = send.deadlineMs !== undefined ? { deadlineMs: send.deadlineMs } : {}
    if (!account) return this.http.request({ url, signal, headers: { accept: '*/*' }, ...deadline })
    const origin = originOf(url)
    if (origin !== account.queryOrigin) {
      throw new ExplorerError('auth', `The token of this connection is only sent to ${account.queryOrigin || 'its query URL'}; the request to ${origin || 'that address'} was not sent.`)
    }
    const token = await this.tokens.token(account)
    const first = scrubbed(await this.http.request({ url, signal, headers: bearer(token), ...deadline }), token)
    if (first.status !== 401) return first
    const renewed = await this.tokens.renewAfterRejection(account, token)
    const second = scrubbed(await this.http.request({ url, signal, headers: bearer(renewed), ...deadline }), renewed)
    if (second.status === 401) {
      throw new ExplorerError(
        'auth',
        `The service refused a freshly issued token (401: ${messageOf(second.body) ?? 'no reason given'}). Check the account's role and workspace.`,
        { status: 401 },
      )
    }
    return second
  }
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

function scrubbed(response: HttpResponse, token: string): HttpResponse {
  const body = scrubBody(response.body, [token])
  return body === response.body ? response : { ...response, body }
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, accept: '*/*' }
}

function header(response: HttpResponse, name: string): string {
  const value = response.headers[name]
  return (Array.isArray(value) ? value[0] : value) ?? ''
}

function readReply(url: string, request: QueryRequest, response: HttpResponse): QueryReply {
  const contentType = header(response, 'content-type')
  if (response.status >= 300 && response.status < 400) {
    throw new ExplorerError('http', `The service answered ${response.status} (a redirect) without a Location to follow.`, { status: response.status })
  }
  if (response.status >= 400) {
    const reason = messageOf(response.body) ?? describeUnreadableError(response, contentType)
    const code = response.status === 403 ? 'auth' : 'http'
    throw new ExplorerError(code, `The service answered ${response.status}: ${reason}`, { status: response.status })
  }
  const reply = {
    url,
    status: response.status,
    contentType,
    bytes: response.body.length,
    timings: response.timings,
    cached: false,
  }
  const format = request.options.format ?? 'json'
  if (format === 'xlsx') return { ...reply, body: null }
  if (format !== 'json' && request.responseType === 'results') {
    return { ...reply, body: response.body.toString('utf8') }
  }
  const json = parseJson(response.body, `${request.responseType} response`)
  if (request.responseType === 'results') {
    const problem = resultsShapeProblem(json)
    if (problem) throw shapeError(request.responseType, problem)
    return { ...reply, body: json }
  }
  const parsed = BODY_SCHEMAS[request.responseType].safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw shapeError(request.responseType, `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`)
  }
  return { ...reply, body: parsed.data }
}

function shapeError(responseType: ResponseType, problem: string): ExplorerError {
  return new ExplorerError('bad_response', `The ${responseType} response does not have the expected shape (${problem}).`)
}

function describeUnreadableError(response: HttpResponse, contentType: string): string {
  const kind = contentType.includes('html') ? 'an HTML page' : `${response.body.length} bytes of ${contentType || 'unknown type'}`
  return `no readable message (the body is ${kind}).`
}
