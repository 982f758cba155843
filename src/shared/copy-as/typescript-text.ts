import type { QueryRequest } from '../query/model'
import { clientCall, clientLimit, clientQueries, copyPlan, SECRET_VARIABLE, type CopyAsConnection, type CopyPlan } from './copy-plan'
import { tsString as literal } from './literals'

/**
 * "Copy as TypeScript": a program for the official client `@spinque/query-api`
 * that sends the request the window holds and prints the answer as JSON.
 * Where the client cannot say the request (context steps, no version
 * segment, a name it would write unencoded), `api.fetchUrl` sends the exact
 * URL with the client's own authentication; where it cannot get the token
 * (the seed's JSON token route, an audience other than its base URL), the
 * program asks for it and passes it in `requestInit`, which the client hands
 * to `fetch` as it is when it has no authentication of its own.
 */

const REQUEST_TYPES: Record<QueryRequest['responseType'], string> = {
  results: 'Results',
  statistics: 'Statistics',
  count: 'Count',
  'results,count': 'ResultsAndCount',
  resultpage: 'ResultPage',
  resultitem: 'ResultItem',
  options: 'Options',
}

/** Two base URLs the client writes the same requests for (it adds the one slash the path needs). */
const sameBase = (a: string, b: string) => (a.endsWith('/') ? a : `${a}/`) === (b.endsWith('/') ? b : `${b}/`)

/** Numbers and booleans as the client's option types want them; anything else stays the text the URL carries. */
function optionValue(value: string): string {
  const number = Number(value)
  return (value !== '' && Number.isFinite(number) && String(number) === value) || value === 'true' || value === 'false' ? value : literal(value)
}

/** A property name in an object literal; `__proto__` computed, since written plainly (quoted or not) it would set the prototype, not a property. */
function key(name: string, bare: boolean): string {
  if (name === '__proto__') return `[${literal(name)}]`
  return bare && /^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name)
}

const optionsObject = (plan: CopyPlan) => `{ ${plan.options.map(([name, value]) => `${key(name, true)}: ${optionValue(value)}`).join(', ')} }`.replace('{  }', '{}')

/** `requestToken()`: the token asked the connection's way, for a program whose client cannot ask it. */
function tokenFunction(plan: CopyPlan): string[] {
  const token = plan.token
  if (token.kind === 'none') return []
  const request =
    token.kind === 'json'
      ? [
          `  const response = await fetch(${literal(`${token.authUrl}/api/auth`)}, {`,
          `    method: 'POST',`,
          `    headers: { 'Content-Type': 'application/json-patch+json', accept: '*/*' },`,
          `    body: JSON.stringify({ WorkspaceName: ${literal(token.workspace)}, ClientId: ${literal(token.clientId)}, ClientSecret: clientSecret, ForceReauth: false }),`,
          `  })`,
        ]
      : [
          `  const response = await fetch(${literal(`${token.authUrl}/oauth/token`)}, {`,
          `    method: 'POST',`,
          `    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },`,
          `    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: ${literal(token.clientId)}, client_secret: clientSecret, audience: ${literal(token.audience)} }),`,
          `  })`,
        ]
  return [
    `/** Asks the connection's auth host for a token, as the app does. */`,
    `async function requestToken(clientSecret: string): Promise<string> {`,
    ...request,
    `  const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; message?: unknown; error_description?: unknown }`,
    `  if (!response.ok || typeof body.access_token !== 'string') {`,
    `    throw new Error(\`The token request was refused (\${response.status}): \${String(body.error_description ?? body.message ?? '')}\`)`,
    `  }`,
    `  return body.access_token`,
    `}`,
    ``,
  ]
}

export function typeScriptText(connection: CopyAsConnection, request: QueryRequest): string {
  const plan = copyPlan(connection, request)
  const token = plan.token
  // The client sends its base URL as the OAuth audience: it can ask the token itself when that is the audience.
  const clientAsks = token.kind === 'oauth' && sameBase(token.audience, plan.base)
  const baseUrl = clientAsks && token.kind === 'oauth' ? token.audience : plan.base
  const queries = clientQueries(plan)
  const limit = clientLimit(plan, clientCall(plan, baseUrl, queries), 'typescript')
  const ownToken = token.kind !== 'none' && !clientAsks

  const notes = [
    `// Runs with the official TypeScript client, @spinque/query-api, on Node 18 or later (e.g. npx tsx request.ts).`,
    ...(token.kind === 'none' ? [] : [`// The client secret is read from ${SECRET_VARIABLE} in the environment; it is never written here.`]),
    ...(token.kind === 'json'
      ? [
          `// This connection asks its tokens from its auth host's /api/auth (a JSON body), a route the client does not speak:`,
          `// requestToken() asks it, and the token goes in requestInit, which the client passes to fetch as it is.`,
        ]
      : ownToken && token.kind === 'oauth'
        ? [
            `// The client would send its base URL as the OAuth audience; this connection's audience is another,`,
            `// so requestToken() asks the token, and it goes in requestInit, which the client passes to fetch as it is.`,
          ]
        : []),
  ]
  const imports = limit === null ? `import { Api, RequestType, type Query } from '@spinque/query-api'` : `import { Api } from '@spinque/query-api'`
  const apiLines = [
    ...(clientAsks ? [`    // Also the audience the client sends with its token request.`] : []),
    `    baseUrl: ${literal(baseUrl)},`,
    ...(plan.version !== undefined ? [`    version: ${literal(plan.version)},`] : []),
    `    workspace: ${literal(plan.workspace)},`,
    `    api: ${literal(plan.api)},`,
    `    config: ${literal(plan.config)},`,
    ...(clientAsks && token.kind === 'oauth'
      ? [
          `    authentication: {`,
          `      type: 'client-credentials',`,
          `      authServer: ${literal(token.authUrl)},`,
          `      clientId: ${literal(token.clientId)},`,
          `      clientSecret,`,
          `      // No cache: a token for this run only (the client warns when none is given).`,
          `      tokenCache: { get: () => null, set: () => {} },`,
          `    },`,
        ]
      : []),
  ]
  const init = ownToken ? ', requestInit' : ''
  const call =
    limit === null
      ? [
          `  const queries: Query[] = [`,
          ...queries!.map((query) => {
            const parameters = query.parameters.map(([name, value]) => `${key(name, false)}: ${literal(value)}`).join(', ')
            return `    { endpoint: ${literal(query.endpoint)}${parameters ? `, parameters: { ${parameters} }` : ''} },`
          }),
          `  ]`,
          `  const answer = await api.fetch(queries, ${optionsObject(plan)}, RequestType.${REQUEST_TYPES[plan.responseType]}${init})`,
        ]
      : [
          `  // The client cannot write this request itself: ${limit}.`,
          `  // api.fetchUrl sends its exact URL${clientAsks ? ', with the token the client asks' : ''}.`,
          `  const answer = await api.fetchUrl(${literal(plan.url)}${init})`,
        ]
  return [
    ...notes,
    imports,
    ``,
    ...tokenFunction(ownToken ? plan : { ...plan, token: { kind: 'none' } }),
    `async function main(): Promise<void> {`,
    ...(token.kind === 'none'
      ? []
      : [
          `  const clientSecret = process.env.${SECRET_VARIABLE}`,
          `  if (!clientSecret) throw new Error('Set ${SECRET_VARIABLE} to the client secret first.')`,
        ]),
    `  const api = new Api({`,
    ...apiLines,
    `  })`,
    ...(ownToken ? [`  const requestInit = { headers: { Authorization: \`Bearer \${await requestToken(clientSecret)}\` } }`] : []),
    ...call,
    `  console.log(JSON.stringify(answer, null, 2))`,
    `}`,
    ``,
    `main().catch((error: unknown) => {`,
    `  console.error(error)`,
    `  process.exitCode = 1`,
    `})`,
    ``,
  ].join('\n')
}
