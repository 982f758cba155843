import { ApiDescriptionSchema, type ApiDescription, type DescriptionAbsence } from '../../shared/api-description'
import { ExplorerError } from '../../shared/ipc/errors'
import { buildDescriptionUrl } from '../../shared/query/url'
import type { TokenAccount } from '../auth/token-manager'
import type { QueryRunner } from '../http/query-runner'
import { header } from '../http/http-client'
import { messageOf, parseJson } from '../http/response-body'
import { serviceError } from '../http/error-answer'
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
  /** `absent` hears why the answer is null (the window says what it could not learn). */
  options: { withToken?: boolean; signal?: AbortSignal | undefined; absent?: (absence: DescriptionAbsence) => void } = {},
): Promise<ApiDescription | null> {
  const url = descriptionUrl(connection, api)
  const send = { deadlineMs: connection.deadlineSeconds === undefined ? undefined : connection.deadlineSeconds * 1000, signal: options.signal }
  let response = await runner.get(url, options.withToken ? account : null, send)
  if (response.status === 401 && account && !options.withToken) response = await runner.get(url, account, send)
  const reason = messageOf(response.body)
  if (response.status === 404 && !/^No such/i.test(reason ?? '')) {
    options.absent?.({ reason: 'not-found', status: 404 })
    return null
  }
  if (response.status >= 400) {
    // Worded as every Query API error is (error-answer.ts); a 401 here was sent without a token (one sent and refused throws in the runner).
    const failure = serviceError(response, header(response, 'content-type'), { workspace: connection.workspace, api, tokenSent: false })
    throw response.status === 404 ? new ExplorerError('not_found', failure.message, failure.extra) : failure
  }
  const parsed = ApiDescriptionSchema.safeParse(parseJson(response.body, 'API description'))
  // A deployment without our extension may answer something else here.
  if (!parsed.success) options.absent?.({ reason: 'other-shape', status: response.status })
  return parsed.success ? parsed.data : null
}

// "Test connection" probes as the official TypeScript client does: see connection-test.ts.
export { testConnection } from './connection-test'
