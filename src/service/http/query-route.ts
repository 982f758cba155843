import { parseTarget } from '../../shared/query/url'
import { authorize } from '../auth/bearer'
import type { AccountDirectory } from '../auth/accounts'
import type { TokenStore } from '../auth/tokens'
import { resolveDescriptionConfig } from '../query/options'
import { checkQuery, noSuchApi, type CheckedQuery } from '../query/query-check'
import { badRequest } from '../refusal'
import { describeApi, type WorkspaceDefinition } from '../workspace/workspaces'
import { jsonReply, type Reply } from './reply'

/**
 * The Query API: `GET {query_url}[/<version>]/<workspace>/api/<api>/…`.
 * Checks run cheapest first and in a fixed order (path, workspace and api,
 * token, options, chain, format) so a request always meets the same error.
 * All of them run here, on the thread that reads HTTP; only the work of a
 * request that passed them (its chain over the dataset, its page) is handed
 * to `queries`, which runs it off this thread (query/query-thread.ts).
 */

/** Runs the work of a checked query; `wanted` says whether its client still waits (a closed connection's query is skipped). */
export interface QueryWork {
  answer(query: CheckedQuery, wanted: () => boolean): Promise<Reply>
}

export interface QueryService {
  /** Path segments of the query URL itself, such as ["query"]. */
  prefix: string[]
  workspaces: Map<string, WorkspaceDefinition>
  tokens: TokenStore
  accounts: AccountDirectory
  queries: QueryWork
}

export async function answerQuery(service: QueryService, path: string, search: string, authorization: string | undefined, wanted: () => boolean): Promise<Reply> {
  const status = STATUS_PATH.exec(path)
  if (status) {
    const answered = apiStatus(service, `${status[1]}/`, search, authorization)
    if (answered) return answered
  }
  const target = parseTarget(path, search)
  if (!target.ok) {
    if (!path.split('/').includes('api')) throw noSuchApi(`nothing is served at ${path.slice(0, 200)}`)
    throw badRequest(`The request cannot be read: ${target.error.message}`)
  }
  const { request, prefix, responseTypeGiven } = target.value
  if (prefix.join('/') !== service.prefix.join('/')) throw noSuchApi(`nothing is served at ${path.slice(0, 200)}`)
  const workspace = service.workspaces.get(request.workspace)
  const api = workspace?.apis.get(request.api)
  if (!workspace || !api) throw noSuchApi(`${request.workspace}/${request.api}`)

  // A protected API's description needs a token too: the client libraries take a 200 there to mean "public".
  if (!api.public) authorize(authorization, workspace.name, service.tokens, service.accounts)
  if (request.steps.length === 0 && !responseTypeGiven) {
    resolveDescriptionConfig(request.options, workspace.name, api.configs)
    return jsonReply(200, describeApi(workspace.name, api))
  }
  // A request that cannot run is refused now, not after waiting its turn behind others' work.
  return service.queries.answer(checkQuery(request, workspace.name, api), wanted)
}

/** `…/api/<api>/status`: the route the official clients name for an API's status (apiStatusUrl). */
const STATUS_PATH = /^(.*\/api\/[^/]+)\/status\/?$/

/**
 * The API's status: what its description route checks (workspace and api,
 * the token of a protected API, `config`), answered with `{"status": "ok"}`
 * and what was checked; null when the path is not an API's root after all
 * (a chain whose last parameter is named "api"), which then reads as a query.
 */
function apiStatus(service: QueryService, apiPath: string, search: string, authorization: string | undefined): Reply | null {
  const target = parseTarget(apiPath, search)
  if (!target.ok || target.value.request.steps.length > 0 || target.value.responseTypeGiven) return null
  const { request, prefix } = target.value
  if (prefix.join('/') !== service.prefix.join('/')) return null
  const workspace = service.workspaces.get(request.workspace)
  const api = workspace?.apis.get(request.api)
  if (!workspace || !api) throw noSuchApi(`${request.workspace}/${request.api}`)
  if (!api.public) authorize(authorization, workspace.name, service.tokens, service.accounts)
  const config = resolveDescriptionConfig(request.options, workspace.name, api.configs)
  return jsonReply(200, { status: 'ok', workspace: workspace.name, api: api.name, config: config.name })
}
