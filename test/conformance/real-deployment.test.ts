import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import { startRealDeployment, type DescriptionAnswer, type RealDeployment } from '../fixtures/real-deployment'

/**
 * The test double of a real deployment keeps the promises other tests build
 * on (test/fixtures/real-deployment.ts): what it refuses, what it drops,
 * how its description and status routes answer.
 */

let service: RunningService
const doubles: Partial<Record<DescriptionAnswer, RealDeployment>> = {}
let json: RealDeployment

beforeAll(async () => {
  service = await startService({ port: 0, log: () => {}, quota: 1_000 })
  for (const description of ['not-found', 'unauthorized', 'other-shape'] as const) doubles[description] = await startRealDeployment({ service, description })
  json = await startRealDeployment({ service, jsonTokenRoute: true })
})
afterAll(async () => {
  for (const double of [...Object.values(doubles), json]) await double?.close()
  await service?.close()
})

const form = (audience: string | null) =>
  new URLSearchParams({ grant_type: 'client_credentials', client_id: service.account.clientId, client_secret: service.account.clientSecret, ...(audience === null ? {} : { audience }) })

async function oauth(double: RealDeployment, audience: string | null): Promise<{ status: number; body: any }> {
  const response = await fetch(`${double.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(audience) })
  return { status: response.status, body: await response.json() }
}

async function get(url: string, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
  return { status: response.status, body: await response.json() }
}

describe('the test double of a real deployment', () => {
  it('issues a token only for its query URL exactly, slash included, as Auth0 matches audiences', async () => {
    const double = doubles['not-found']!
    expect(double.queryUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect((await oauth(double, double.queryUrl)).status).toBe(200)
    for (const audience of [double.queryUrl.slice(0, -1), service.queryUrl, null]) {
      expect(await oauth(double, audience)).toEqual({ status: 403, body: { error: 'access_denied', error_description: 'Service not found' } })
    }
    expect(double.requests.filter((seen) => seen.host === 'auth').map((seen) => seen.audience)).toEqual([double.queryUrl, double.queryUrl.slice(0, -1), service.queryUrl, undefined])
  })

  it("serves the seed's JSON token route only when asked to", async () => {
    const body = JSON.stringify({ WorkspaceName: 'world', ClientId: service.account.clientId, ClientSecret: service.account.clientSecret, ForceReauth: false })
    const ask = (double: RealDeployment) => fetch(`${double.authUrl}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect((await ask(doubles['not-found']!)).status).toBe(404)
    expect((await ask(json)).status).toBe(200)
  })

  it('answers queries with a version segment, drops the options the service would refuse, and words errors as {message}', async () => {
    const double = doubles['not-found']!
    const { body: reply } = await oauth(double, double.queryUrl)
    const token = reply.access_token as string
    const root = `${double.queryUrl}4/world/api/places`
    const statistics = await get(`${root}/e/search/p/query/san/statistics?config=default&count=3&dev_version=master`, token)
    expect(statistics.status).toBe(200)
    expect(statistics.body.total).toBeGreaterThan(0)
    expect(double.requests.at(-1)!.dropped).toEqual(['count=3', 'dev_version=master'])

    expect(await get(`${double.queryUrl}world/api/places/e/search/p/query/san/results`, token)).toEqual({ status: 404, body: { message: expect.stringMatching(/^No such api: a version segment is required/) } })
    expect(await get(`${root}/e/lookup/results`, token)).toEqual({ status: 400, body: { message: expect.stringMatching(/^no endpoint/) } })
    expect(await get(`${root}/e/search/p/query/san/results?config=staging`, token)).toEqual({ status: 404, body: { message: expect.stringMatching(/^No such workspace configuration/) } })
    expect(await get(`${double.queryUrl}4/world/api/weather/e/search/p/query/san/results`, token)).toEqual({ status: 404, body: { message: expect.stringMatching(/^No such api/) } })
    expect((await get(`${root}/e/search/p/query/san/results`)).status).toBe(401)
  })

  it('never answers our description: 404, 401 or JSON of another shape, as chosen; the status route answers 200 without a token', async () => {
    const token = async (double: RealDeployment) => (await oauth(double, double.queryUrl)).body.access_token as string
    const description = (double: RealDeployment) => `${double.queryUrl}4/world/api/places/?config=default`
    expect((await get(description(doubles['not-found']!), await token(doubles['not-found']!))).status).toBe(404)
    expect((await get(description(doubles.unauthorized!), await token(doubles.unauthorized!))).status).toBe(401)
    const other = doubles['other-shape']!
    expect((await get(description(other))).status).toBe(401)
    const shaped = await get(description(other), await token(other))
    expect(shaped.status).toBe(200)
    expect(shaped.body).not.toHaveProperty('endpoints')
    expect((await get(`${other.queryUrl}4/world/api/public/`)).status).toBe(200)

    expect(await get(`${other.queryUrl}4/world/api/places/status?config=default`)).toEqual({ status: 200, body: { status: 'OK', workspace: 'world', api: 'places', config: 'default' } })
    expect((await get(`${other.queryUrl}4/world/api/weather/status?config=default`)).status).toBe(404)
  })
})
