import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { startService, type RunningService } from '../../src/service'
import { absenceSentence, type ApiLearning } from '../../src/shared/api-description'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { call, failure, json, keychainMissing, openCore, startServer, type TestServer } from './support'

/**
 * What the window learns of an API (`api:learn`), over real HTTP on
 * 127.0.0.1: the embedded service describes itself; a deployment as real
 * ones are (a test double: its description route answers 404, JSON of
 * another shape, or 401 even with a token) serves none, and the window is
 * told which, in a sentence that says how to go on.
 */

const missing = await keychainMissing()

describe.skipIf(missing)('learning what an API is', () => {
  let service: RunningService
  let deployment: TestServer
  let dataDir: string
  let core: AppCore
  let real: string

  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
    deployment = await startServer((req, res) => {
      if (req.url === '/auth/api/auth') return json(res, 200, { access_token: 'real-token', expires_in: 3600 })
      const api = /^\/query\/4\/films\/api\/([^/?]+)\//.exec(req.url ?? '')?.[1]
      if (api === 'movies') return json(res, 404, { message: 'Not found' })
      if (api === 'shaped') return json(res, 200, { name: 'shaped', version: 3, endpoints: { search: {} } })
      if (api === 'locked') return json(res, 401, { message: 'Unauthorized' })
      return json(res, 500, { message: 'unexpected' })
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-learn-'))
    core = await openCore(dataDir, { demo: service, echoLog: false })
    const view = await call<ConnectionView>(core, 'connections:save', {
      name: 'Real',
      authUrl: `${deployment.origin}/auth`,
      queryUrl: `${deployment.origin}/query`,
      version: '4',
      workspace: 'films',
      api: 'movies',
      clientId: 'real',
    })
    real = view.id
    await call(core, 'secrets:set', { connectionId: real, secret: 'real-secret' })
  })
  afterAll(async () => {
    await core?.close()
    await deployment?.close()
    await service?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('reads our description where it exists: nothing to say', async () => {
    const learnt = await call<ApiLearning>(core, 'api:learn', { connectionId: 'demo', api: 'places' })
    expect(learnt.absence).toBeNull()
    expect(learnt.description?.endpoints.map((endpoint) => endpoint.name)).toContain('country:FILTER')
  })

  it('says a 404 is no description, not a failure', async () => {
    const learnt = await call<ApiLearning>(core, 'api:learn', { connectionId: real, api: 'movies' })
    expect(learnt).toEqual({ description: null, absence: { reason: 'not-found', status: 404 } })
    expect(absenceSentence(learnt.absence!)).toBe('This API serves no description (404): endpoints are typed by name, and facets are declared here.')
  })

  it('tells JSON of another shape from a 404', async () => {
    const learnt = await call<ApiLearning>(core, 'api:learn', { connectionId: real, api: 'shaped' })
    expect(learnt).toEqual({ description: null, absence: { reason: 'other-shape', status: 200 } })
    expect(absenceSentence(learnt.absence!)).toBe(
      "This API's description route answered in another format (200), not one this app reads: endpoints are typed by name, and facets are declared here.",
    )
  })

  it('gives a 401 with a token as the auth failure it is, with its status, which the window reads as not allowed to read it', async () => {
    const refused = await failure(core, 'api:learn', { connectionId: real, api: 'locked' })
    expect(refused).toMatchObject({ code: 'auth', status: 401 })
    // Asked without a token first, then with one, and once more with a new token (as after any 401), never in a loop.
    const asked = deployment.seen.filter((request) => request.url.includes('/api/locked/'))
    expect(asked.map((request) => request.headers.authorization ?? null)).toEqual([null, 'Bearer real-token', 'Bearer real-token'])
  })
})
