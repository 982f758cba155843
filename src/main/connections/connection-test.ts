import { ApiDescriptionSchema } from '../../shared/api-description'
import type { ConnectionCheck } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import { quoteServerText, serviceErrorKind, type ServiceErrorContext } from '../../shared/query/error-answer-text'
import { buildDescriptionUrl } from '../../shared/query/url'
import type { TokenAccount, TokenManager, TokenMode } from '../auth/token-manager'
import { header, type HttpResponse } from '../http/http-client'
import type { QueryRunner } from '../http/query-runner'
import { messageOf } from '../http/response-body'
import { serviceError } from '../http/error-answer'
import type { StoredConnection } from './connection-store'

/**
 * "Test connection", probing as the official TypeScript client does
 * (SERVICE-CONTRACT "Real deployments"): `GET …/api/<api>/?config=<config>`
 * without a token first (a 200 means the API is public), then a token, the
 * API root again with it (our description, where the service has one), and
 * the status route `…/api/<api>/status?config=<config>`. A real deployment
 * has no description in our format: its 404 or JSON of another shape is
 * said, never a failure. What fails a check is what would fail a query: the
 * host unreachable, no such API or configuration, a fault of the service,
 * or a token refused.
 */

type Step = ConnectionCheck['step']

/** The API's root and its status route, with `config` always sent, as the official clients write them (apiUrl, apiStatusUrl). */
export function probeUrls(connection: StoredConnection, api: string): { root: string; status: string } {
  const root = buildDescriptionUrl(connection.queryUrl, { version: connection.version || undefined, workspace: connection.workspace, api })
  const config = `?config=${encodeURIComponent(connection.config || 'default')}`
  return { root: `${root}${config}`, status: `${root}status${config}` }
}

/** Kinds of answer that would fail every query of this API too. */
const FAILS_EVERY_QUERY = new Set(['api-not-found', 'config-not-found', 'server-error'])

function failsEveryQuery(response: HttpResponse): boolean {
  return FAILS_EVERY_QUERY.has(serviceErrorKind(response.status, messageOf(response.body))) || response.status >= 500
}

/** The server's words for a check's message, bounded and with control characters visible. */
function said(response: HttpResponse): string {
  const message = messageOf(response.body)
  return message === null ? '' : `: ${quoteServerText(message, 200)}`
}

export async function testConnection(
  tokens: TokenManager,
  runner: QueryRunner,
  connection: StoredConnection,
  account: TokenAccount | null,
  /** `check` (ForceReauth false) for a profile's own hosts; `force` where the token in use must not go. */
  tokenMode: Extract<TokenMode, 'check' | 'force'> = 'check',
): Promise<ConnectionCheck[]> {
  const checks: ConnectionCheck[] = []
  const timed = async (step: Step, work: () => Promise<string>): Promise<boolean> => {
    const started = performance.now()
    try {
      const message = await work()
      checks.push({ step, ok: true, message, ms: Math.round(performance.now() - started) })
      return true
    } catch (error) {
      const failure =
        error instanceof ExplorerError ? error : new ExplorerError('internal', 'The check failed unexpectedly; the details are in the log.')
      checks.push({
        step,
        ok: false,
        message: failure.message,
        code: failure.code,
        ...(failure.extra.status !== undefined ? { status: failure.extra.status } : {}),
        ...(failure.extra.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.extra.retryAfterSeconds } : {}),
        ms: Math.round(performance.now() - started),
      })
      if (!(error instanceof ExplorerError)) throw error
      return false
    }
  }

  const api = connection.api
  const send = { deadlineMs: connection.deadlineSeconds === undefined ? undefined : connection.deadlineSeconds * 1000 }
  const urls = api ? probeUrls(connection, api) : null
  const config = connection.config || 'default'
  const context = (tokenSent: boolean): ServiceErrorContext => ({ workspace: connection.workspace, api, config, tokenSent })
  const named = `API "${api}"`

  // 1. The API's root without a token: public, needs a token, or not there at all.
  let access: 'public' | 'token' | 'unknown' | 'failed' = 'failed'
  let anonymous: HttpResponse | null = null
  if (urls) {
    await timed('access', async () => {
      const response = await runner.get(urls.root, null, send)
      anonymous = response
      if (response.status === 200) {
        access = 'public'
        return `${named} answered without a token (200): it is public, so no token is needed.`
      }
      if (response.status === 401 || response.status === 403) {
        access = 'token'
        return `${named} needs a token: without one it answered ${response.status}.`
      }
      if (failsEveryQuery(response)) throw serviceError(response, header(response, 'content-type'), context(false))
      access = 'unknown'
      return response.status === 404
        ? `The API's root (…/api/${api}/?config=${config}) answered 404 without a token${said(response)}. A deployment without an API description answers so; whether a token is needed is learned below.`
        : `The API's root answered ${response.status} without a token${said(response)}; the checks below tell whether the API works.`
    })
  }

  // 2. The token, where there is a client ID (the app sends it with every query then).
  const tokenOk = await timed('token', async () => {
    if (!account) {
      if (access === 'token') {
        throw new ExplorerError('auth', `${named} needs a token, and this connection has no client ID: enter the client ID and secret (and the Token request its deployment uses).`)
      }
      return access === 'public' ? 'No client ID: none is needed, the API is public.' : 'No client ID: queries are sent without a token (public API).'
    }
    const issued = await tokens.issued(account, tokenMode)
    const minutes = Math.max(0, Math.round((issued.expiresAt - Date.now()) / 60_000))
    return `A token was issued for workspace "${connection.workspace}" (valid for ${minutes} more min).`
  })
  if (!urls) {
    checks.push({ step: 'description', ok: true, message: 'No default API is set, so nothing was asked of the Query API.', ms: 0 })
    return checks
  }
  if (!tokenOk || access === 'failed') return checks
  const withToken = access === 'public' ? null : account

  // 3. The root again with the token: our description, or what its absence means.
  const described = await timed('description', async () => {
    const response = access === 'public' || !withToken ? anonymous! : await runner.get(urls.root, withToken, send)
    if (response.status >= 400) {
      if (failsEveryQuery(response)) throw serviceError(response, header(response, 'content-type'), context(withToken !== null))
      return `${named} serves no API description (${response.status}${said(response)}): endpoints and parameters are typed by name, and facets declared by hand.`
    }
    let json: unknown
    try {
      json = JSON.parse(response.body.toString('utf8'))
    } catch {
      json = undefined
    }
    const parsed = ApiDescriptionSchema.safeParse(json)
    if (!parsed.success) {
      return `${named} answered its root (${response.status}) with something other than an API description: endpoints and parameters are typed by name, and facets declared by hand.`
    }
    const description = parsed.data
    const count = description.endpoints.length
    return `API "${description.api}" answered: ${count} endpoint${count === 1 ? '' : 's'}, configurations ${description.configs.join(', ')}${description.public ? ' (public)' : ''}.`
  })
  if (!described && checks.at(-1)?.code === 'auth') return checks

  // 4. The status route, with the token a query would carry.
  await timed('status', async () => {
    const response = await runner.get(urls.status, withToken, send)
    if (response.status === 200) {
      const status = statusField(response)
      return `The status route answered 200${status ? ` ("${status}")` : ''}: ${named} with configuration "${config}" is served.`
    }
    if (failsEveryQuery(response) || response.status === 401 || response.status === 403) {
      throw serviceError(response, header(response, 'content-type'), context(withToken !== null))
    }
    return `The status route (…/api/${api}/status) answered ${response.status}${said(response)}: this deployment does not serve it, which queries do not need.`
  })
  return checks
}

/** The `status` of a status route's JSON answer, quoted safely; null when it has none. */
function statusField(response: HttpResponse): string | null {
  try {
    const json = JSON.parse(response.body.toString('utf8')) as { status?: unknown }
    return typeof json?.status === 'string' ? quoteServerText(json.status, 60) : null
  } catch {
    return null
  }
}
