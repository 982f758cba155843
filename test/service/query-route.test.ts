import { describe, expect, it } from 'vitest'
import { AccountDirectory, createAccount } from '../../src/service/auth/accounts'
import { TokenStore } from '../../src/service/auth/tokens'
import { answerQuery, type QueryService } from '../../src/service/http/query-route'
import { jsonReply, type Reply } from '../../src/service/http/reply'
import type { CheckedQuery } from '../../src/service/query/query-check'
import { ServiceError } from '../../src/service/refusal'
import { hostedWorkspaces } from '../../src/service/workspace/workspaces'

/**
 * The Query API's checks, cheapest first and in a fixed order (path,
 * workspace and api, token, options, chain) so a request always meets the
 * same error; only a request that passed them all is handed to the query
 * work. The work here records what it is handed (the query thread's own
 * work is query-thread.test.ts's).
 */

const accounts = new AccountDirectory([createAccount({ clientId: 'demo', clientSecret: 'demo-secret' })])
const tokens = new TokenStore(3600)
const token = tokens.issue(accounts.get('demo')!, 'world').token
const handed: CheckedQuery[] = []
const service: QueryService = {
  prefix: ['query'],
  workspaces: hostedWorkspaces(),
  tokens,
  accounts,
  queries: {
    answer: async (query) => {
      handed.push(query)
      return jsonReply(200, { ran: query.responseType })
    },
  },
}

/** With the token by default; null: no Authorization header. */
function ask(path: string, search = '', authorization: string | null = `Bearer ${token}`): Promise<Reply> {
  return answerQuery(service, path, search, authorization ?? undefined, () => true)
}

async function refusal(path: string, search = '', authorization?: string | null): Promise<{ status: number; message: string }> {
  const error = await ask(path, search, authorization === undefined ? `Bearer ${token}` : authorization).then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof ServiceError)) throw new Error(`expected a refusal, got ${String(error)}`)
  return { status: error.status, message: error.message }
}

const SEARCH = '/query/world/api/places/e/search/p/query/paris/results'

describe('answerQuery', () => {
  it('hands a request that passed every check to the query work, checked', async () => {
    handed.length = 0
    const reply = await ask(SEARCH, '?count=5&config=production')
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.body as string)).toEqual({ ran: 'results' })
    expect(handed).toHaveLength(1)
    expect(handed[0]).toMatchObject({
      workspace: 'world',
      api: 'places',
      responseType: 'results',
      steps: [{ endpoint: 'search', parameters: { query: 'paris' } }],
      options: { count: 5, offset: 0, config: { name: 'production' } },
    })
    // With the version segment the client libraries write, the same.
    expect((await ask('/query/4/world/api/places/e/search/p/query/paris/count')).status).toBe(200)
  })

  it('answers the API description itself, without the work, and refuses options other than config there', async () => {
    handed.length = 0
    const reply = await ask('/query/world/api/public', '', null)
    expect(reply.status).toBe(200)
    const description = JSON.parse(reply.body as string)
    expect(description).toMatchObject({ workspace: 'world', api: 'public', public: true, configs: ['default'] })
    expect(handed).toEqual([])
    expect(await refusal('/query/world/api/places', '?count=5')).toEqual({ status: 400, message: 'Option count does not apply to the API description; only config does' })
  })

  it('404 for a path outside the query URL, with no api in it, or an unknown workspace or api', async () => {
    expect(await refusal('/query/nothing/here')).toEqual({ status: 404, message: 'No such api: nothing is served at /query/nothing/here' })
    expect(await refusal('/other/world/api/places/e/search/p/query/paris/results')).toEqual({ status: 404, message: 'No such api: nothing is served at /other/world/api/places/e/search/p/query/paris/results' })
    expect(await refusal('/query/mars/api/places/e/search/p/query/x/results')).toEqual({ status: 404, message: 'No such api: mars/places' })
    expect(await refusal('/query/world/api/nope/e/search/p/query/x/results')).toEqual({ status: 404, message: 'No such api: world/nope' })
  })

  it('checks the token of a protected API before its options, and not at all on a public one', async () => {
    // Both wrong: the token is named, as it comes first.
    expect((await refusal(SEARCH, '?count=0', null)).status).toBe(401)
    expect((await refusal(SEARCH, '?count=0')).status).toBe(400)
    handed.length = 0
    expect((await ask('/query/world/api/public/e/search/p/query/paris/results', '', null)).status).toBe(200)
    expect(handed).toHaveLength(1)
  })

  it('refuses a request that cannot run before handing it over: no work is done for it', async () => {
    handed.length = 0
    expect(await refusal('/query/world/api/places/e/nosuchendpoint/results')).toEqual({
      status: 400,
      message: 'no endpoint named "nosuchendpoint" in api "places" (it has: search, continent, continent:FILTER, country, country:FILTER, population, sort, city, countries, triples)',
    })
    expect((await refusal(SEARCH, '?count=ten')).status).toBe(400)
    expect(handed).toEqual([])
  })

  it('answers an API\'s status route with what it checked, honouring config', async () => {
    const reply = await ask('/query/world/api/places/status', '?config=production')
    expect(JSON.parse(reply.body as string)).toEqual({ status: 'ok', workspace: 'world', api: 'places', config: 'production' })
    expect((await refusal('/query/world/api/places/status', '', null)).status).toBe(401)
  })
})
