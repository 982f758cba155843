import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tokenCacheKey } from '../../src/main/auth/token-manager'
import { connectionHandlers } from '../../src/main/ipc/handlers/connection-handlers'
import { startService, type RunningService } from '../../src/service'
import { failureOf } from '../fixtures/failure-of'
import { openRegistry, PROFILE, saveServiceConnection } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'

/** The connection channels over a real registry and the embedded service: what each answers, and what a check leaves behind. */

describe('connectionHandlers', () => {
  const tempDir = useTempDirs('qe-connection-handlers')
  let service: RunningService
  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
  })
  afterAll(() => service?.close())

  async function open() {
    const opened = await openRegistry(tempDir())
    return { ...opened, handlers: connectionHandlers(opened.registry, opened.tokens, opened.runner) }
  }

  it("saves, uses, lists and deletes, answering each in the contract's shape", async () => {
    const { handlers } = await open()
    const saved = await handlers['connections:save'](PROFILE, {})
    expect(await handlers['connections:use']({ connectionId: saved.id }, {})).toEqual({ lastConnectionId: saved.id })
    expect((await handlers['connections:list']({}, {})).map((view) => view.id)).toEqual([saved.id])
    expect(await handlers['secrets:set']({ connectionId: saved.id, secret: 's' }, {})).toEqual({ stored: 'memory' })
    expect(await handlers['secrets:clear']({ connectionId: saved.id }, {})).toEqual({ cleared: true })
    expect(await handlers['connections:delete']({ id: saved.id }, {})).toEqual({ deleted: true })
    expect(await handlers['connections:delete']({ id: saved.id }, {})).toEqual({ deleted: false })
  })

  it('tests a saved connection: ok when every check passes, with the view its token now shows', async () => {
    const { handlers, registry } = await open()
    const saved = await saveServiceConnection(registry, service)
    const result = await handlers['connections:test']({ connectionId: saved.id }, {})
    expect(result.ok).toBe(true)
    expect(result.checks.map((check) => check.step)).toEqual(['access', 'token', 'description', 'status'])
    expect(result.connection).toMatchObject({ id: saved.id, hasSecret: true, tokenRequestsLastHour: 1 })
    expect(result.connection.tokenExpiresAt).not.toBeNull()

    await registry.setSecret(saved.id, 'wrong')
    expect((await handlers['connections:test']({ connectionId: saved.id }, {})).ok).toBe(false)
  })

  it('checks a form without saving it; a wrong secret fails the token step', async () => {
    const { handlers, registry } = await open()
    const form = { name: 'Form', authUrl: service.authUrl, queryUrl: service.queryUrl, workspace: service.workspace, api: 'places', clientId: service.account.clientId }
    const result = await handlers['connections:check']({ connection: form, secret: service.account.clientSecret }, {})
    expect(result.ok).toBe(true)
    expect(await registry.list()).toEqual([])
    const wrong = await handlers['connections:check']({ connection: form, secret: 'not-the-secret' }, {})
    expect(wrong.ok).toBe(false)
    expect(wrong.checks.find((check) => !check.ok)).toMatchObject({ step: 'token', code: 'auth' })
  })

  it('re-authenticates a connection with a new token; one without a client ID is told it needs none', async () => {
    const { handlers, registry, secrets } = await open()
    const saved = await saveServiceConnection(registry, service)
    const before = service.tokenRequestCount()
    const view = await handlers['connections:reauth']({ connectionId: saved.id }, {})
    expect(service.tokenRequestCount()).toBe(before + 1)
    expect(view.tokenExpiresAt).not.toBeNull()
    expect(await secrets.get(tokenCacheKey(saved.id))).not.toBeNull()

    const publicApi = await registry.save({ ...PROFILE, authUrl: '', clientId: '' })
    const refused = await failureOf(handlers['connections:reauth']({ connectionId: publicApi.id }, {}))
    expect([refused.code, refused.message]).toEqual(['validation', 'This connection has no client ID: its API is public and needs no token.'])
  })

  it('duplicates a connection with its secret', async () => {
    const { handlers, registry } = await open()
    const saved = await saveServiceConnection(registry, service)
    const copy = await handlers['connections:duplicate']({ connectionId: saved.id }, {})
    expect(copy).toMatchObject({ name: 'Service (copy)', hasSecret: true })
  })
})
