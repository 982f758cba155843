import type { RunningService } from '../../src/service'
import { requestUrl, type CopyAsConnection } from '../../src/shared/copy-as/copy-as'
import type { QueryRequest, ResponseType } from '../../src/shared/query/model'

/**
 * The requests the conformance tests send every way (the official clients,
 * each "Copy as" text), what counts as an answer's first item, and the
 * answer to expect: the embedded service's own, asked directly.
 */

export const search = (query = 'san'): QueryRequest['steps'][number] => ({ endpoint: 'search', parameters: { query } })

export function request(responseType: ResponseType, steps: QueryRequest['steps'] = [search()], options: QueryRequest['options'] = {}, extra: Partial<QueryRequest> = {}): QueryRequest {
  return { workspace: 'world', api: 'places', steps, responseType, options, ...extra }
}

/** Every response type, with a facet's options for `options`. */
export const BY_TYPE: Record<ResponseType, QueryRequest> = {
  results: request('results', [search()], { count: 3 }),
  statistics: request('statistics'),
  count: request('count'),
  'results,count': request('results,count', [search()], { count: 3 }),
  resultpage: request('resultpage', [search()], { count: 3, offset: 1 }),
  resultitem: request('resultitem', [search()], { rank: 2 }),
  options: request('options', [search(), { endpoint: 'continent:FILTER', parameters: { value: 'Europe' } }], { count: 5 }, { facet: 'country' }),
}

/** What the tests compare of an answer: enough to tell two different requests apart, for every type. */
export function firstItem(type: ResponseType, answer: any): unknown {
  switch (type) {
    case 'results':
    case 'resultpage':
      return answer.items[0]
    case 'results,count':
      return [answer[0].items[0], answer[1].total]
    case 'statistics':
      return [answer.total, answer.stats[0]]
    case 'count':
      return answer.total
    case 'resultitem':
      return answer
    case 'options':
      return answer.options[0]
  }
}

/** A connection to the embedded service itself, with a version segment as the official clients always send. */
export function embeddedConnection(service: RunningService, overrides: Partial<CopyAsConnection> = {}): CopyAsConnection {
  return {
    authUrl: service.authUrl,
    queryUrl: service.queryUrl,
    version: '4',
    workspace: service.workspace,
    api: 'places',
    clientId: service.account.clientId,
    tokenRequest: 'oauth',
    ...overrides,
  }
}

/** A token from the service's own JSON route, for asking it directly. */
export async function serviceToken(service: RunningService): Promise<string> {
  const response = await fetch(`${service.authUrl}/api/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ WorkspaceName: service.workspace, ClientId: service.account.clientId, ClientSecret: service.account.clientSecret, ForceReauth: false }),
  })
  if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { access_token: string }).access_token
}

/** The first item of what the embedded service answers for `query` (options it does not know left out, as a deployment ignores them). */
export async function expectedFirst(service: RunningService, token: string, query: QueryRequest): Promise<unknown> {
  const { extra: _extra, ...options } = query.options
  const url = requestUrl(embeddedConnection(service), { ...query, api: query.api, options })
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } })
  const body = await response.text()
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body}`)
  const first = firstItem(query.responseType, JSON.parse(body))
  // A comparison with nothing would pass for any program: every scenario must find something.
  if (first === undefined || (Array.isArray(first) && first.includes(undefined))) throw new Error(`${url} answered no first item`)
  return first
}
