import type { QueryRequest } from '../query/model'
import { isEndpointStep } from '../query/model'
import { buildUrl } from '../query/url'

/**
 * "Copy as": the current request as text someone can run elsewhere — curl,
 * the official TypeScript and Python clients, or the bare URL. Built from the
 * connection's description only, so no secret or token can ever reach the
 * text: the secret is read from an environment variable when the code runs.
 */

export const SECRET_VARIABLE = 'QUERY_EXPLORER_CLIENT_SECRET'

export const COPY_AS_KINDS = ['curl', 'typescript', 'python', 'url'] as const
export type CopyAsKind = (typeof COPY_AS_KINDS)[number]

export const COPY_AS_LABELS: Record<CopyAsKind, string> = {
  curl: 'curl',
  typescript: 'TypeScript',
  python: 'Python',
  url: 'Request URL',
}

/** What of a connection the texts need: never its secret (it has none to give). */
export interface CopyAsConnection {
  authUrl: string
  queryUrl: string
  version?: string | undefined
  workspace: string
  api: string
  config?: string | undefined
  clientId: string
  tokenRequest?: 'json' | 'oauth' | undefined
}

/** One word for a POSIX shell: single quotes keep everything literal; a quote inside closes, escapes and reopens. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

const trimSlash = (url: string) => url.replace(/\/+$/, '')

/**
 * The token reply's `access_token` (both token requests answer with it), read
 * with sed so the text needs nothing beyond curl and a POSIX userland.
 */
const EXTRACT_TOKEN = `sed -n 's/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p'`

export function curlText(connection: CopyAsConnection, request: QueryRequest): string {
  const url = buildUrl(connection.queryUrl, request)
  if (!connection.clientId) return `curl -s ${shellQuote(url)}\n`
  const auth = trimSlash(connection.authUrl)
  const lines = [`# Set ${SECRET_VARIABLE} to the client secret first; it is read from the environment, never written here.`]
  if (connection.tokenRequest === 'oauth') {
    lines.push(
      `TOKEN=$(curl -s -X POST ${shellQuote(`${auth}/oauth/token`)} \\`,
      `  --data-urlencode 'grant_type=client_credentials' \\`,
      `  --data-urlencode ${shellQuote(`client_id=${connection.clientId}`)} \\`,
      `  --data-urlencode "client_secret=$${SECRET_VARIABLE}" \\`,
      `  --data-urlencode ${shellQuote(`audience=${connection.queryUrl}`)} \\`,
      `  | ${EXTRACT_TOKEN})`,
    )
  } else {
    // The secret goes through printf's argument, not the format, so a `%` or `\` in it stays as it is; only `"` and `\` need JSON escaping.
    const before = JSON.stringify({ WorkspaceName: connection.workspace, ClientId: connection.clientId }).slice(0, -1)
    lines.push(
      `SECRET_JSON=$(printf '%s' "$${SECRET_VARIABLE}" | sed 's/[\\\\"]/\\\\&/g')`,
      `TOKEN=$(printf '%s"ClientSecret":"%s","ForceReauth":false}' ${shellQuote(before + ',')} "$SECRET_JSON" \\`,
      `  | curl -s -X POST ${shellQuote(`${auth}/api/auth`)} -H 'Content-Type: application/json' --data-binary @- \\`,
      `  | ${EXTRACT_TOKEN})`,
    )
  }
  lines.push(`curl -s -H "Authorization: Bearer $TOKEN" ${shellQuote(url)}`)
  return lines.join('\n') + '\n'
}

/** A string literal both TypeScript and Python read back as the same text (JSON's escapes are valid in both). */
const literal = (value: string) => JSON.stringify(value)

/** The chain's endpoint steps as the clients' queries; context steps have no place in their model. */
function endpointSteps(request: QueryRequest) {
  return request.steps.filter(isEndpointStep)
}

function clientOptions(request: QueryRequest): Array<[string, string | number | boolean]> {
  return Object.entries(request.options).filter(([key, value]) => key !== 'config' && value !== undefined) as Array<
    [string, string | number | boolean]
  >
}

export function typeScriptText(connection: CopyAsConnection, request: QueryRequest): string {
  const config = request.options.config ?? connection.config
  const apiLines = [
    `  baseUrl: ${literal(connection.queryUrl)},`,
    ...(request.version ?? connection.version ? [`  version: ${literal((request.version ?? connection.version)!)},`] : []),
    `  workspace: ${literal(request.workspace)},`,
    `  api: ${literal(request.api)},`,
    ...(config ? [`  config: ${literal(config)},`] : []),
  ]
  if (connection.clientId) {
    apiLines.push(
      `  authentication: {`,
      `    type: 'client-credentials',`,
      `    authServer: ${literal(connection.authUrl)},`,
      `    clientId: ${literal(connection.clientId)},`,
      `    // Read from the environment: never put the secret in code.`,
      `    clientSecret: process.env.${SECRET_VARIABLE} ?? '',`,
      `  },`,
    )
  }
  const queries = endpointSteps(request).map((step) => {
    const parameters = Object.entries(step.parameters)
      .map(([name, value]) => `${literal(name)}: ${literal(value)}`)
      .join(', ')
    return `  { endpoint: ${literal(step.endpoint)}, parameters: { ${parameters} } },`
  })
  const options = clientOptions(request)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? literal(value) : String(value)}`)
    .join(', ')
  return [
    `import { Api, RequestType, type Query } from '@spinque/query-api'`,
    ``,
    `const api = new Api({`,
    ...apiLines,
    `})`,
    ``,
    `const queries: Query[] = [`,
    ...queries,
    `]`,
    ``,
    `const response = await api.fetch(queries, { ${options} }, ${requestTypeTs(request)})`,
    `console.log(response)`,
    ``,
  ].join('\n')
}

function requestTypeTs(request: QueryRequest): string {
  const names: Record<string, string> = {
    results: 'Results',
    statistics: 'Statistics',
    count: 'Count',
    'results,count': 'ResultsAndCount',
    resultpage: 'ResultPage',
    resultitem: 'ResultItem',
    options: 'Options',
  }
  return `RequestType.${names[request.responseType] ?? 'Results'}`
}

const python = (value: string | number | boolean) =>
  typeof value === 'string' ? literal(value) : typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value)

export function pythonText(connection: CopyAsConnection, request: QueryRequest): string {
  const config = request.options.config ?? connection.config
  const version = request.version ?? connection.version
  const apiLines = [
    `    'baseUrl': ${literal(connection.queryUrl)},`,
    ...(version ? [`    'version': ${literal(version)},`] : []),
    `    'workspace': ${literal(request.workspace)},`,
    `    'api': ${literal(request.api)},`,
    ...(config ? [`    'config': ${literal(config)},`] : []),
  ]
  if (connection.clientId) {
    apiLines.push(
      `    'authentication': {`,
      `        'authServer': ${literal(connection.authUrl)},`,
      `        'clientId': ${literal(connection.clientId)},`,
      `        # Read from the environment: never put the secret in code.`,
      `        'clientSecret': os.environ[${literal(SECRET_VARIABLE)}],`,
      `    },`,
    )
  }
  const queries = endpointSteps(request).map((step) => {
    const parameters = Object.entries(step.parameters)
      .map(([name, value]) => `(${literal(name)}, ${literal(value)})`)
      .join(', ')
    return `    Query(endpoint=${literal(step.endpoint)}, parameters=[${parameters}]),`
  })
  const options = clientOptions(request)
    .map(([key, value]) => `${literal(key)}: ${python(value)}`)
    .join(', ')
  const requestType = request.responseType === 'statistics' ? ', RequestType.STATISTICS' : ''
  return [
    `import os`,
    ``,
    `from query_api_python import Api, Query${requestType ? ', RequestType' : ''}`,
    ``,
    `api = Api({`,
    ...apiLines,
    `})`,
    ``,
    `queries = [`,
    ...queries,
    `]`,
    ``,
    `print(api.fetch(queries, {${options}}${requestType}))`,
    ``,
  ].join('\n')
}

export function copyAsText(kind: CopyAsKind, connection: CopyAsConnection, request: QueryRequest): string {
  switch (kind) {
    case 'curl':
      return curlText(connection, request)
    case 'typescript':
      return typeScriptText(connection, request)
    case 'python':
      return pythonText(connection, request)
    case 'url':
      return buildUrl(connection.queryUrl, request)
  }
}
