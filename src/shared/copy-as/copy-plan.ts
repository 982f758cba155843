import type { ConnectionInput } from '../connections/connection-input'
import { isEndpointStep, type QueryRequest, type ResponseType, type Step } from '../query/model'
import { normalizeSteps } from '../query/normalize'
import { buildSentUrl } from '../query/url'
import { sentVersion } from '../query/version-segment'
import { pythonClientUrl, sameRequest, typeScriptClientUrl, type ClientCall, type ClientQuery } from './client-urls'

/**
 * What every "Copy as" text is built from: the exact URL the app sends for
 * the request, how the connection gets its token, and, for each official
 * client, whether a call through it sends that same request, or why not.
 * Built from the connection's description only: it has no secret to give.
 */

export const SECRET_VARIABLE = 'QUERY_EXPLORER_CLIENT_SECRET'

/** What of a connection the texts need: never its secret (a profile holds none). */
export type CopyAsConnection = Pick<
  ConnectionInput,
  'authUrl' | 'queryUrl' | 'version' | 'workspace' | 'api' | 'config' | 'clientId' | 'tokenRequest' | 'audience'
>

export type TokenSource =
  | { kind: 'none' }
  /** OAuth client credentials at `<authUrl>/oauth/token`, for `audience`. */
  | { kind: 'oauth'; authUrl: string; clientId: string; audience: string }
  /** The seed's JSON token route `<authUrl>/api/auth`, which neither official client speaks. */
  | { kind: 'json'; authUrl: string; clientId: string; workspace: string }

export interface CopyPlan {
  /** The URL the app sends: the connection's version filled in, config always, every option the request holds (those the app does not know included). */
  url: string
  /** The query URL exactly as the connection holds it. */
  base: string
  version: string | undefined
  workspace: string
  api: string
  config: string
  responseType: ResponseType
  /** The facet whose options a `options` request asks. */
  facet: string | undefined
  steps: Step[]
  /** The options after config, as the URL writes them (values as text). */
  options: Array<[string, string]>
  token: TokenSource
}

const trimSlash = (url: string) => url.replace(/\/+$/, '')

/** The config a request runs with: its own, else the connection's, else `default` (always sent, as the official clients do). */
function configOf(connection: CopyAsConnection, request: QueryRequest): string {
  return request.options.config || connection.config || 'default'
}

function tokenSource(connection: CopyAsConnection): TokenSource {
  if (!connection.clientId) return { kind: 'none' }
  const authUrl = trimSlash(connection.authUrl)
  if (connection.tokenRequest === 'oauth') {
    // The official clients send the query URL as given, slash and all; auth servers match it exactly.
    return { kind: 'oauth', authUrl, clientId: connection.clientId, audience: connection.audience || connection.queryUrl }
  }
  return { kind: 'json', authUrl, clientId: connection.clientId, workspace: connection.workspace }
}

export function copyPlan(connection: CopyAsConnection, request: QueryRequest): CopyPlan {
  const config = configOf(connection, request)
  // An empty version (a hand-written workspace file) means none, as the connection form reads it.
  const connectionVersion = connection.version || undefined
  const url = buildSentUrl(connection.queryUrl, connectionVersion, { ...request, options: { ...request.options, config } })
  const queryAt = url.indexOf('?')
  const options = queryAt < 0 ? [] : [...new URLSearchParams(url.slice(queryAt))].filter(([name]) => name !== 'config')
  return {
    url,
    base: connection.queryUrl,
    version: sentVersion(request.version, connectionVersion),
    workspace: request.workspace,
    api: request.api,
    config,
    responseType: request.responseType,
    facet: request.facet,
    steps: normalizeSteps(request.steps),
    options,
    token: tokenSource(connection),
  }
}

/** The chain as the clients' queries (a facet's options: the facet last), or null when it holds context steps, which their queries cannot say. */
export function clientQueries(plan: CopyPlan): ClientQuery[] | null {
  const queries: ClientQuery[] = []
  for (const step of plan.steps) {
    if (!isEndpointStep(step)) return null
    queries.push({ endpoint: step.endpoint, parameters: Object.entries(step.parameters) })
  }
  if (plan.responseType === 'options') queries.push({ endpoint: plan.facet ?? '', parameters: [] })
  return queries
}

/** The call a client would make for the plan; null when it has no place for the chain. */
export function clientCall(plan: CopyPlan, baseUrl: string, queries: ClientQuery[] | null): ClientCall | null {
  if (!queries || plan.version === undefined) return null
  return {
    baseUrl,
    version: plan.version,
    workspace: plan.workspace,
    api: plan.api,
    config: plan.config,
    queries,
    requestType: plan.responseType,
    options: plan.options,
  }
}

/** Why the client cannot send this request itself (a sentence for a comment in the code), or null when it sends exactly the plan's URL. */
export function clientLimit(plan: CopyPlan, call: ClientCall | null, client: 'typescript' | 'python'): string | null {
  if (plan.steps.some((step) => !isEndpointStep(step))) return 'its queries have no place for context steps (/c/<name>/<value>)'
  if (plan.version === undefined) return 'it always sends a version segment (/4/ by default), and this connection has none'
  if (client === 'python' && plan.responseType !== 'results' && plan.responseType !== 'statistics') {
    return `it asks only results and statistics, not ${plan.responseType}`
  }
  if (!call || call.queries.length === 0) return 'it needs at least one query'
  let written: string
  try {
    written = client === 'typescript' ? typeScriptClientUrl(call) : pythonClientUrl(call)
  } catch {
    return 'a name or value is not well-formed text'
  }
  if (sameRequest(written, plan.url)) return null
  return client === 'typescript'
    ? 'it writes the version, workspace, API, facet, config and option values into the URL unencoded, and drops empty or dot segments, which would change this request'
    : 'it encodes neither endpoint names nor the version, workspace, API and config, keeps `/` in values, and drops empty or dot segments, which would change this request'
}
