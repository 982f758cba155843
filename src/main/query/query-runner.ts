import type { z } from 'zod'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryReply } from '../../shared/ipc/contract'
import type { QueryRequest, ResponseType } from '../../shared/query/model'
import { buildUrl } from '../../shared/query/url'
import { validateRequest } from '../../shared/query/validate'
import { CountResponseSchema, ResultsResponseSchema, StatisticsResponseSchema } from '../../shared/responses'
import type { TokenAccount, TokenManager } from '../auth/token-manager'
import type { HttpClient, HttpResponse } from './http-client'
import { messageOf, parseJson } from './response-body'

/** Where a query goes: the non-secret part of a connection, and its account if it has one. */
export interface QueryTarget {
  queryUrl: string
  version?: string | undefined
  account: TokenAccount | null
}

const BODY_SCHEMAS: Record<ResponseType, z.ZodType> = {
  results: ResultsResponseSchema,
  statistics: StatisticsResponseSchema,
  count: CountResponseSchema,
}

/**
 * Sends Query API requests for the app: every request the renderer asks for
 * goes through here, so token handling, cancellation and error wording are in
 * one place.
 */
export class QueryRunner {
  private readonly running = new Map<string, AbortController>()

  constructor(
    private readonly http: HttpClient,
    private readonly tokens: TokenManager,
  ) {}

  async run(requestId: string, target: QueryTarget, request: QueryRequest): Promise<QueryReply> {
    const problems = validateRequest(request)
    if (problems.length > 0) {
      throw new ExplorerError('validation', problems.map((problem) => problem.message).join('\n'), { problems })
    }
    const url = buildUrl(target.queryUrl, { ...request, version: request.version ?? target.version })
    const controller = new AbortController()
    this.running.get(requestId)?.abort()
    this.running.set(requestId, controller)
    try {
      const response = await this.get(url, target.account, controller.signal)
      return readReply(url, request, response)
    } finally {
      if (this.running.get(requestId) === controller) this.running.delete(requestId)
    }
  }

  cancel(requestId: string): boolean {
    const controller = this.running.get(requestId)
    if (!controller) return false
    controller.abort()
    this.running.delete(requestId)
    return true
  }

  /**
   * GET with the account's token. On a 401 the token is renewed once with
   * ForceReauth and the request replayed once; a second 401 is an error, never
   * a loop.
   */
  async get(url: string, account: TokenAccount | null, signal?: AbortSignal): Promise<HttpResponse> {
    if (!account) return this.http.request({ url, signal, headers: { accept: '*/*' } })
    const first = await this.http.request({ url, signal, headers: bearer(await this.tokens.token(account)) })
    if (first.status !== 401) return first
    await this.tokens.forget(account)
    const renewed = await this.tokens.token(account, { force: true })
    const second = await this.http.request({ url, signal, headers: bearer(renewed) })
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
    throw new ExplorerError(
      'http',
      `The service redirected the request to ${header(response, 'location') || 'another address'}; redirects are not followed so that the token stays with this service.`,
      { status: response.status },
    )
  }
  if (response.status >= 400) {
    const reason = messageOf(response.body) ?? describeUnreadableError(response, contentType)
    throw new ExplorerError('http', `The service answered ${response.status}: ${reason}`, { status: response.status })
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
  const parsed = BODY_SCHEMAS[request.responseType].safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ExplorerError(
      'bad_response',
      `The ${request.responseType} response does not have the expected shape (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}).`,
    )
  }
  return { ...reply, body: parsed.data }
}

function describeUnreadableError(response: HttpResponse, contentType: string): string {
  const kind = contentType.includes('html') ? 'an HTML page' : `${response.body.length} bytes of ${contentType || 'unknown type'}`
  return `no readable message (the body is ${kind}).`
}
