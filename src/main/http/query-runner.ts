import type { z } from 'zod'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryReply } from '../../shared/ipc/contract'
import { isEndpointStep, type QueryRequest, type ResponseType } from '../../shared/query/model'
import type { ServiceErrorContext } from '../../shared/query/error-answer-text'
import { nestedDeeperThan } from '../../shared/json-depth'
import { buildSentUrl, rootMemo } from '../../shared/query/url'
import { validateRequest } from '../../shared/query/validate'
import {
  CountResponseSchema,
  OptionsResponseSchema,
  ResultObjectSchema,
  ResultPageResponseSchema,
  StatisticsResponseSchema,
} from '../../shared/responses'
import type { TokenAccount, TokenManager } from '../auth/token-manager'
import { AuthorizedGet, type SendOptions } from './authorized-get'
import { cancel, cancelHandle, type CancelHandle } from './cancel-handle'
import { header, type HttpClient, type HttpResponse } from './http-client'
import { parseJson, tooDeep } from './response-body'
import { sentOption, serviceError } from './error-answer'
import { ReplyCache, type ReplyCacheOptions } from './reply-cache'
import { readResultsPage } from './results-page'
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

/**
 * Results pages are checked by hand (results-shape.ts), for speed; the same
 * rules as ResultsResponseSchema. `results,count` holds one such page, so its
 * first half is checked the same way.
 */
const BODY_SCHEMAS: Record<Exclude<ResponseType, 'results' | 'results,count'>, z.ZodType> = {
  statistics: StatisticsResponseSchema,
  count: CountResponseSchema,
  resultpage: ResultPageResponseSchema,
  resultitem: ResultObjectSchema,
  options: OptionsResponseSchema,
}

/** A query's answer as received: the URL sent (never a token), and the body's bytes with the token scrubbed. */
export interface RawReply {
  url: string
  status: number
  contentType: string
  body: Buffer
}

interface SharedRun {
  promise: Promise<QueryReply>
  cancel: CancelHandle
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
  /** The last API root written: a session sends its requests to one API, so its root is written once. */
  private readonly root = rootMemo()
  readonly cache: ReplyCache
  /** Every GET goes out through here: the token, its 401 replay, redirects. */
  private readonly gets: AuthorizedGet

  constructor(http: HttpClient, tokens: TokenManager, cacheOptions: ReplyCacheOptions = {}, now: () => number = Date.now) {
    this.gets = new AuthorizedGet(http, tokens)
    this.cache = new ReplyCache(cacheOptions, now)
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
    const url = this.sentUrl(target, request)
    const key = `${target.key}\n${url}`
    if (!options.fresh) {
      const hit = this.cache.get(key)
      if (hit) return { ...hit, cached: true }
    }
    let run = options.fresh ? undefined : this.shared.get(key)
    if (!run) {
      const handle = cancelHandle()
      const promise = this.gets.send(url, target.account, { cancel: handle, deadlineMs: target.deadlineMs }).then((response) => readReply(url, request, response, target.account !== null))
      const started: SharedRun = { promise, cancel: handle, waiters: 0 }
      run = started
      this.shared.set(key, started)
      const release = () => {
        if (this.shared.get(key) === started) this.shared.delete(key)
      }
      promise.then((reply) => {
        this.cache.set(key, reply)
        release()
      }, release)
    }
    // A waiter is cancelled by a plain callback: an AbortSignal's event
    // machinery costs more than the rest of a cached-token query's bookkeeping.
    // One promise settles with the run or with the cancellation, whichever comes first.
    let cancelWaiter!: () => void
    let cancelled = false
    const shared = run
    const waiting = new Promise<QueryReply>((resolve, reject) => {
      cancelWaiter = () => {
        cancelled = true
        reject(new ExplorerError('cancelled', 'The request was cancelled.'))
      }
      shared.promise.then(resolve, reject)
    })
    this.running.get(requestId)?.()
    this.running.set(requestId, cancelWaiter)
    // The caller went away (a closed tab, a destroyed window): it waits no more.
    const callerGone = () => cancelWaiter()
    if (options.signal?.aborted) cancelWaiter()
    else options.signal?.addEventListener('abort', callerGone, { once: true })
    run.waiters++
    try {
      return await waiting
    } finally {
      options.signal?.removeEventListener('abort', callerGone)
      run.waiters--
      // The request itself stops only when nobody waits for it any more.
      if (cancelled && run.waiters === 0) cancel(run.cancel)
      if (this.running.get(requestId) === cancelWaiter) this.running.delete(requestId)
    }
  }

  /**
   * A query's answer as the bytes the service sent (an export's page in csv,
   * xlsx, xml or rdf), through the same token, origin, redirect and deadline
   * rules as `run`; never cached or shared. Error statuses are refused with
   * the same sentences as `run` (a 406 names the format).
   */
  async fetchBytes(target: QueryTarget, request: QueryRequest, options: { signal?: AbortSignal | undefined } = {}): Promise<RawReply> {
    const url = this.sentUrl(target, request)
    const response = await this.gets.send(url, target.account, { signal: options.signal, deadlineMs: target.deadlineMs })
    const contentType = header(response, 'content-type')
    refuseErrorStatus(response, contentType, url, request, target.account !== null)
    return { url, status: response.status, contentType, body: response.body }
  }

  /** The URL sent for a valid request (the connection's version filled in); a request that is not valid is refused. */
  private sentUrl(target: QueryTarget, request: QueryRequest): string {
    const problems = validateRequest(request)
    if (problems.length > 0) {
      throw new ExplorerError('validation', problems.map((problem) => problem.message).join('\n'), { problems })
    }
    return buildSentUrl(target.queryUrl, target.version, request, this.root)
  }

  /**
   * Lets work made of several requests (a comparison's two sides) be
   * cancelled by one id, as `query:cancel` cancels a single run: `cancel(id)`
   * calls `onCancel`. Replaces (and cancels) whatever ran under that id.
   * Returns the function that stops tracking it.
   */
  track(requestId: string, onCancel: () => void): () => void {
    this.running.get(requestId)?.()
    this.running.set(requestId, onCancel)
    return () => {
      if (this.running.get(requestId) === onCancel) this.running.delete(requestId)
    }
  }

  cancel(requestId: string): boolean {
    const cancel = this.running.get(requestId)
    if (!cancel) return false
    this.running.delete(requestId)
    cancel()
    return true
  }

  /** GET with the account's token: see AuthorizedGet.get (401 replay, same-origin redirects). */
  get(url: string, account: TokenAccount | null, options: SendOptions = {}): Promise<HttpResponse> {
    return this.gets.get(url, account, options)
  }
}

/** A redirect left unfollowed or an error status, as the sentence the user reads (query/error-answer-text.ts words it). */
function refuseErrorStatus(response: HttpResponse, contentType: string, url: string, request: QueryRequest, tokenSent: boolean): void {
  if (response.status >= 300 && response.status < 400) {
    throw new ExplorerError('http', `The service answered ${response.status} (a redirect) without a Location to follow.`, { status: response.status })
  }
  if (response.status >= 400) throw serviceError(response, contentType, requestContext(url, request, tokenSent))
}

/** What a request asked, for an error's sentence to name what to check: the config as the URL sent it. */
function requestContext(url: string, request: QueryRequest, tokenSent: boolean): ServiceErrorContext {
  const endpoints = request.steps.filter(isEndpointStep).map((step) => step.endpoint)
  if (request.facet !== undefined) endpoints.push(request.facet)
  return { workspace: request.workspace, api: request.api, config: sentOption(url, 'config'), endpoints, tokenSent }
}

function readReply(url: string, request: QueryRequest, response: HttpResponse, tokenSent: boolean): QueryReply {
  const contentType = header(response, 'content-type')
  refuseErrorStatus(response, contentType, url, request, tokenSent)
  const reply = (body: unknown): QueryReply => ({
    url,
    status: response.status,
    contentType,
    bytes: response.body.length,
    body,
    timings: response.timings,
    cached: false,
  })
  const format = request.options.format ?? 'json'
  if (format === 'xlsx') return reply(null)
  if (format !== 'json' && request.responseType === 'results') return reply(response.body.toString('utf8'))
  const type = request.responseType
  const what = `${type} response`
  if (type === 'results') {
    // Only the items asked for are read (results-page.ts); the shape check bounds the depth as it walks the page: one walk, not two.
    const json = readResultsPage(response.body, request.options.count, what)
    const problem = resultsShapeProblem(json)
    if (problem) throw nestedDeeperThan(json) ? tooDeep(what) : shapeError(type, problem)
    return reply(json)
  }
  const json = parseJson(response.body, what)
  if (type === 'results,count') {
    if (!Array.isArray(json) || json.length !== 2) throw shapeError(type, 'body: expected a list of [results, statistics]')
    const problem = resultsShapeProblem(json[0])
    if (problem) throw shapeError(type, `0.${problem}`)
    return reply([json[0], checked(type, StatisticsResponseSchema, json[1], '1.')])
  }
  return reply(checked(type, BODY_SCHEMAS[type], json))
}

function checked(type: ResponseType, schema: z.ZodType, json: unknown, at = ''): unknown {
  const parsed = schema.safeParse(json)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw shapeError(type, `${at}${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`)
}

function shapeError(responseType: ResponseType, problem: string): ExplorerError {
  return new ExplorerError('bad_response', `The ${responseType} response does not have the expected shape (${problem}).`)
}


