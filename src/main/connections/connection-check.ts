import { ApiDescriptionSchema, type ApiDescription } from '../../shared/api-description'
import type { ConnectionCheck } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import { buildDescriptionUrl } from '../../shared/query/url'
import type { TokenAccount, TokenManager, TokenMode } from '../auth/token-manager'
import type { QueryRunner } from '../http/query-runner'
import { messageOf, parseJson } from '../http/response-body'
import type { StoredConnection } from './connection-store'

export function descriptionUrl(connection: StoredConnection, api: string): string {
  // An empty version is none here, as it always was (a saved profile never keeps one).
  return buildDescriptionUrl(connection.queryUrl, { version: connection.version || undefined, workspace: connection.workspace, api })
}

/**
 * `GET …/<workspace>/api/<api>/`: the API's description, or null when the
 * server has none (404 other than "No such api", or another shape), so the
 * user can still type endpoints. It is asked for without a token first: a
 * public API answers, and a protected one (which answers 401, as the
 * contract and the client libraries expect) gets the token on a second try.
 */
export async function describeApi(
  runner: QueryRunner,
  connection: StoredConnection,
  api: string,
  account: TokenAccount | null,
  options: { withToken?: boolean; signal?: AbortSignal | undefined } = {},
): Promise<ApiDescription | null> {
  const url = descriptionUrl(connection, api)
  const send = { deadlineMs: connection.deadlineSeconds === undefined ? undefined : connection.deadlineSeconds * 1000, signal: options.signal }
  let response = await runner.get(url, options.withToken ? account : null, send)
  if (response.status === 401 && account && !options.withToken) response = await runner.get(url, account, send)
  const reason = messageOf(response.body)
  if (response.status === 404 && !/^No such/i.test(reason ?? '')) return null
  if (response.status >= 400) {
    const hint =
      response.status === 404
        ? ' Check the workspace and API names.'
        : response.status === 401 || response.status === 403
          ? ' Check the account and its role.'
          : ''
    throw new ExplorerError(
      response.status === 401 || response.status === 403 ? 'auth' : response.status === 404 ? 'not_found' : 'http',
      `The API description could not be read (${response.status}: ${reason ?? 'no readable message'}).${hint}`,
      { status: response.status },
    )
  }
  const parsed = ApiDescriptionSchema.safeParse(parseJson(response.body, 'API description'))
  // A deployment without our extension may answer something else here.
  return parsed.success ? parsed.data : null
}

/**
 * "Test connection": a token request past our cache (ForceReauth false for a
 * profile's own hosts, true for a form pointing elsewhere) and the API
 * description with that token. Each step says exactly what failed.
 */
export async function testConnection(
  tokens: TokenManager,
  runner: QueryRunner,
  connection: StoredConnection,
  account: TokenAccount | null,
  /** `check` (ForceReauth false) for a profile's own hosts; `force` where the token in use must not go. */
  tokenMode: Extract<TokenMode, 'check' | 'force'> = 'check',
): Promise<ConnectionCheck[]> {
  const checks: ConnectionCheck[] = []
  const timed = async (step: ConnectionCheck['step'], work: () => Promise<string>): Promise<boolean> => {
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

  const tokenOk = await timed('token', async () => {
    if (!account) return 'No client ID: queries are sent without a token (public API).'
    const issued = await tokens.issued(account, tokenMode)
    const minutes = Math.max(0, Math.round((issued.expiresAt - Date.now()) / 60_000))
    return `A token was issued for workspace "${connection.workspace}" (valid for ${minutes} more min).`
  })
  if (!tokenOk) return checks
  await timed('description', async () => {
    if (!connection.api) return 'No default API is set, so no API description was read.'
    const description = await describeApi(runner, connection, connection.api, account, { withToken: true })
    if (!description) return `API "${connection.api}" answered, but without a description: endpoints are typed by hand.`
    const count = description.endpoints.length
    return `API "${description.api}" answered: ${count} endpoint${count === 1 ? '' : 's'}, configurations ${description.configs.join(', ')}${description.public ? ' (public)' : ''}.`
  })
  return checks
}
