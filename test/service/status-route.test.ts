import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSession, PLACES, PUBLIC, type Session } from './service-session'

/**
 * `…/api/<api>/status?config=<config>`, the route the official TypeScript
 * client names (apiStatusUrl): checked as the description route is (the
 * workspace and API, the token of a protected API, `config`), answered with
 * JSON saying it is served.
 */

let session: Session

beforeAll(async () => {
  session = await openSession()
})
afterAll(async () => {
  await session?.service.close()
})

describe('the status route', () => {
  it('answers 200 with what it checked, with or without the version segment, as the client writes it', async () => {
    for (const path of [`${PLACES}/status?config=default`, `/4${PLACES}/status?config=production`, `${PLACES}/status/`]) {
      const answer = await session.get(path)
      expect(answer.status, path).toBe(200)
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
      expect(answer.json()).toEqual({ status: 'ok', workspace: 'world', api: 'places', config: path.includes('production') ? 'production' : 'default' })
    }
  })

  it('is protected as the description route is: 401 without a token on a protected API, 200 on a public one', async () => {
    const refused = await session.get(`${PLACES}/status?config=default`, null)
    expect(refused.status).toBe(401)
    expect(refused.json().message).toMatch(/^Invalid or expired token/)
    const description = await session.get(`${PLACES}/?config=default`, null)
    expect(description.status).toBe(401)
    const open = await session.get(`${PUBLIC}/status?config=default`, null)
    expect(open.status).toBe(200)
    expect(open.json()).toMatchObject({ status: 'ok', api: 'public' })
  })

  it('honours config and the names: an unknown config, API or workspace is the 404 the clients type', async () => {
    expect((await session.get(`${PLACES}/status?config=nope`)).json()).toEqual({ message: 'No such workspace configuration: world/nope' })
    expect((await session.get(`${PLACES}/status?config=nope`)).status).toBe(404)
    const api = await session.get('/world/api/nope/status?config=default')
    expect([api.status, api.json().message]).toEqual([404, 'No such api: world/nope'])
    const workspace = await session.get('/elsewhere/api/places/status', null)
    expect([workspace.status, workspace.json().message]).toEqual([404, 'No such api: elsewhere/places'])
  })

  it('takes only config, as the description route does', async () => {
    const answer = await session.get(`${PLACES}/status?config=default&count=5`)
    expect(answer.status).toBe(400)
    expect(answer.json().message).toBe('Option count does not apply to the API description; only config does')
  })

  it('is no endpoint: a chain that ends in "status" is read as a query, and refused as before', async () => {
    const answer = await session.get(`${PLACES}/e/search/p/query/rome/status`)
    expect(answer.status).toBe(400)
    expect(answer.json().message).toMatch(/unexpected path segment "status"/)
  })
})
