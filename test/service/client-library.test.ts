import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'

/**
 * The embedded service used the way the official TypeScript client
 * (`@spinque/query-api`) uses a deployment, written here from its README and
 * type declarations (not its code):
 * - `new Api({ baseUrl, version = '4', workspace, api, config = 'default',
 *   authentication: { type: 'client-credentials', clientId, clientSecret, authServer } })`
 *   first GETs `<baseUrl>/<version>/<workspace>/api/<api>?config=<config>`
 *   without a token: a 200 means a public API, and no token is ever sent;
 * - tokens come from `POST <authServer>/oauth/token`, form-encoded
 *   `grant_type=client_credentials&client_id&client_secret&audience=<baseUrl>`
 *   (values written as they are), answered `{access_token, expires_in}`,
 *   refused with `{error, error_description}`;
 * - `api.fetch(queries, options, requestType)` GETs `…/e/<endpoint>/p/<name>/<value>…/<requestType>?config=…&<options>`,
 *   a facet's options as `…/options/<facet>`, with `Authorization: Bearer`;
 *   on a 401 it renews the token once and replays once;
 * - errors are told apart by status and message: 401 UnauthorizedError, 400
 *   with "no endpoint" EndpointNotFoundError, 404 with "No such api"
 *   ApiNotFoundError, 404 with "No such workspace configuration"
 *   WorkspaceConfigNotFoundError, 500 ServerError, else ErrorResponse;
 * - a single-select facet's filter value is the option id itself; a
 *   multiple one is `1(a)|1(b)`.
 */

interface Query {
  endpoint: string
  parameters?: Record<string, string>
}

class LibraryError extends Error {
  constructor(
    readonly kind: 'Unauthorized' | 'EndpointNotFound' | 'ApiNotFound' | 'WorkspaceConfigNotFound' | 'Server' | 'Response',
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

class LibraryApi {
  private token: string | null = null
  private probe: Promise<void>
  public: boolean | null = null
  readonly sent: { url: string; authorization: string | null }[] = []

  constructor(
    private readonly config: { baseUrl: string; version?: string; workspace: string; api: string; config?: string },
    private readonly credentials?: { clientId: string; clientSecret: string; authServer: string },
  ) {
    this.probe = this.credentials ? this.checkPublic() : Promise.resolve()
  }

  private get root(): string {
    const { baseUrl, version = '4', workspace, api } = this.config
    return `${baseUrl.replace(/\/$/, '')}/${version}/${workspace}/api/${api}`
  }

  private async checkPublic(): Promise<void> {
    const response = await fetch(`${this.root}?config=${this.config.config ?? 'default'}`)
    this.public = response.status === 200
  }

  private async fetchToken(): Promise<string> {
    const { clientId, clientSecret, authServer } = this.credentials!
    const body = [`grant_type=client_credentials`, `client_id=${clientId}`, `client_secret=${clientSecret}`, `audience=${this.config.baseUrl}`].join('&')
    const response = await fetch(`${authServer.replace(/\/$/, '')}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    })
    const json = (await response.json()) as Record<string, unknown>
    if (response.status !== 200 || typeof json.access_token !== 'string' || typeof json.expires_in !== 'number') {
      throw new Error(String(json.error_description ?? json.error ?? response.status))
    }
    return json.access_token
  }

  url(queries: Query[], options: Record<string, string | number | boolean> = {}, requestType = 'results'): string {
    const chain = requestType === 'options' ? queries.slice(0, -1) : queries
    let path = ''
    for (const query of chain) {
      path += `/e/${encodeURIComponent(query.endpoint)}`
      for (const [name, value] of Object.entries(query.parameters ?? {})) path += `/p/${encodeURIComponent(name)}/${encodeURIComponent(value)}`
    }
    const type = requestType === 'options' ? `options/${encodeURIComponent(queries[queries.length - 1]!.endpoint)}` : requestType
    const search = [`config=${this.config.config ?? 'default'}`, ...Object.entries(options).map(([name, value]) => `${name}=${value}`)]
    return `${this.root}${path}/${type}?${search.join('&')}`
  }

  async fetch(queries: Query[], options: Record<string, string | number | boolean> = {}, requestType = 'results'): Promise<unknown> {
    await this.probe
    const url = this.url(queries, options, requestType)
    const send = async () => {
      const authorization = this.credentials && !this.public ? `Bearer ${(this.token ??= await this.fetchToken())}` : null
      this.sent.push({ url, authorization })
      return fetch(url, { headers: authorization ? { Authorization: authorization } : {} })
    }
    let response = await send()
    if (response.status === 401 && this.credentials && !this.public) {
      this.token = null
      response = await send()
    }
    const json = (await response.json()) as { message?: string }
    if (response.status === 200) return json
    const message = json.message ?? ''
    if (response.status === 401) throw new LibraryError('Unauthorized', message, 401)
    if (response.status === 400 && message.includes('no endpoint')) throw new LibraryError('EndpointNotFound', message, 400)
    if (response.status === 404 && message.includes('No such api')) throw new LibraryError('ApiNotFound', message, 404)
    if (response.status === 404 && message.includes('No such workspace configuration')) throw new LibraryError('WorkspaceConfigNotFound', message, 404)
    if (response.status === 500) throw new LibraryError('Server', message, 500)
    throw new LibraryError('Response', message, response.status)
  }
}

/** The libraries' type guards, as their declarations describe them. */
const isResultsResponse = (json: any) => typeof json?.count === 'number' && typeof json?.offset === 'number' && Array.isArray(json?.items)
const isCountResponse = (json: any) => typeof json?.total === 'number'
const isStatisticsResponse = (json: any) => isCountResponse(json) && Array.isArray(json?.stats)
const isOptionsResponse = (json: any) => typeof json?.id === 'string' && Array.isArray(json?.options)

let service: RunningService
beforeAll(async () => {
  service = await startService({ port: 0, log: () => {} })
})
afterAll(() => service.close())

function places(config?: string): LibraryApi {
  return new LibraryApi(
    { baseUrl: service.queryUrl, workspace: 'world', api: 'places', ...(config ? { config } : {}) },
    { clientId: service.account.clientId, clientSecret: service.account.clientSecret, authServer: service.authUrl },
  )
}

const search: Query = { endpoint: 'search', parameters: { query: 'san' } }

describe('the official client against the embedded service', () => {
  it('sees the protected API as protected, gets a token with ClientCredentials and no other help, and runs every request type', async () => {
    const api = places()
    const results = await api.fetch([search], { count: 10, offset: 0 })
    expect(api.public).toBe(false)
    expect(isResultsResponse(results)).toBe(true)
    expect(api.sent[0]!.authorization).toMatch(/^Bearer /)
    expect(api.sent[0]!.url).toBe(`${service.queryUrl}/4/world/api/places/e/search/p/query/san/results?config=default&count=10&offset=0`)

    expect(isCountResponse(await api.fetch([search], {}, 'count'))).toBe(true)
    expect(isStatisticsResponse(await api.fetch([search], {}, 'statistics'))).toBe(true)
    const both = (await api.fetch([search], { count: 5 }, 'results,count')) as unknown[]
    expect(isResultsResponse(both[0]) && isStatisticsResponse(both[1])).toBe(true)
    const page = (await api.fetch([search], { count: 5, offset: 0 }, 'resultpage')) as any
    expect(isResultsResponse(page)).toBe(true)
    const item = (await api.fetch([search], { rank: 1, column: 1 }, 'resultitem')) as any
    expect(item).toEqual(page.items[0].tuple[0])
    const options = (await api.fetch([search, { endpoint: 'country' }], { multiselect: false }, 'options')) as any
    expect(isOptionsResponse(options)).toBe(true)
    expect(options.options[0]).toEqual({ id: expect.any(String), score: expect.any(Number), value: expect.any(String), title: expect.any(String) })
  })

  it('uses one token for many requests (the quota), and after a revocation renews once and replays', async () => {
    const api = places()
    const before = service.tokenRequestCount()
    await api.fetch([search], {}, 'count')
    await api.fetch([search], {}, 'count')
    expect(service.tokenRequestCount() - before).toBe(1)
    service.revokeTokens()
    expect(isCountResponse(await api.fetch([search], {}, 'count'))).toBe(true)
    expect(service.tokenRequestCount() - before).toBe(2)
  })

  it('sees the public API as public and sends it no token', async () => {
    const api = new LibraryApi(
      { baseUrl: service.queryUrl, workspace: 'world', api: 'public' },
      { clientId: service.account.clientId, clientSecret: service.account.clientSecret, authServer: service.authUrl },
    )
    const before = service.tokenRequestCount()
    expect(isResultsResponse(await api.fetch([search]))).toBe(true)
    expect(api.public).toBe(true)
    expect(api.sent[0]!.authorization).toBeNull()
    expect(service.tokenRequestCount()).toBe(before)
  })

  it('filters by a single-select facet (the bare id) and a multiple one (1(a)|1(b)), asking options without the facet\'s own filter', async () => {
    const api = places()
    const spain = (await api.fetch([search, { endpoint: 'country:FILTER', parameters: { value: 'ES' } }], {}, 'count')) as { total: number }
    const mexico = (await api.fetch([search, { endpoint: 'country:FILTER', parameters: { value: 'MX' } }], {}, 'count')) as { total: number }
    const both = (await api.fetch([search, { endpoint: 'country:FILTER', parameters: { value: '1(ES)|1(MX)' } }], {}, 'count')) as { total: number }
    expect(spain.total).toBeGreaterThan(0)
    expect(both.total).toBe(spain.total + mexico.total)
    const options = (await api.fetch([search, { endpoint: 'continent:FILTER', parameters: { value: 'Europe' } }, { endpoint: 'country' }], {}, 'options')) as any
    expect(options.options.find((option: any) => option.id === 'ES').score).toBe(spain.total)
    expect(options.options.some((option: any) => option.id === 'MX')).toBe(false)
  })

  it('gets the error classes it matches on: no endpoint, No such api, No such workspace configuration', async () => {
    const api = places()
    await expect(api.fetch([{ endpoint: 'lookup' }])).rejects.toMatchObject({ kind: 'EndpointNotFound', status: 400 })
    await expect(api.fetch([search, { endpoint: 'genre' }], {}, 'options')).rejects.toMatchObject({ kind: 'EndpointNotFound', status: 400 })
    await expect(places('staging').fetch([search])).rejects.toMatchObject({ kind: 'WorkspaceConfigNotFound', status: 404 })
    const missing = new LibraryApi({ baseUrl: service.queryUrl, workspace: 'world', api: 'weather' })
    await expect(missing.fetch([search])).rejects.toMatchObject({ kind: 'ApiNotFound', status: 404 })
    const unauthenticated = new LibraryApi({ baseUrl: service.queryUrl, workspace: 'world', api: 'places' })
    await expect(unauthenticated.fetch([search])).rejects.toMatchObject({ kind: 'Unauthorized', status: 401 })
  })

  it('is told why a token is refused, in the error_description it throws', async () => {
    const api = new LibraryApi(
      { baseUrl: service.queryUrl, workspace: 'world', api: 'places' },
      { clientId: service.account.clientId, clientSecret: 'not-the-secret', authServer: service.authUrl },
    )
    await expect(api.fetch([search])).rejects.toThrow(/^Invalid client credentials/)
  })
})
