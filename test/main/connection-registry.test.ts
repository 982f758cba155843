import { describe, expect, it } from 'vitest'
import { tokenCacheKey } from '../../src/main/auth/token-manager'
import { checkConnection, secretKey, type BuiltInConnection } from '../../src/main/connections/connection-registry'
import { SECRET_REENTRY_MESSAGE, encodeBoundSecret } from '../../src/main/credentials/bound-secret'
import { memorySecretStore } from '../../src/main/credentials/secret-store'
import { failureOf, refusal } from '../fixtures/failure-of'
import { openRegistry, PROFILE } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'

/** The registry of connections over a real connections file; secrets in a memory store standing in for the keychain. */

describe('ConnectionRegistry', () => {
  const tempDir = useTempDirs('qe-registry')

  const open = (builtIns: BuiltInConnection[] = []) => openRegistry(tempDir(), builtIns)

  const demo = (): BuiltInConnection => ({ ...PROFILE, id: 'demo', name: 'Demo', secrets: memorySecretStore('demo memory') })

  it('saves a profile trimmed, lists it after the built-in ones, and names every bad field at once', async () => {
    const { registry } = await open([demo()])
    const view = await registry.save({ ...PROFILE, name: '  Prod  ', version: ' 4 ' })
    expect(view).toMatchObject({ name: 'Prod', version: '4', builtIn: false, hasSecret: false, secretStore: 'memory', tokenRequestsLastHour: 0, tokenExpiresAt: null })
    expect((await registry.list()).map((listed) => [listed.id, listed.builtIn])).toEqual([['demo', true], [view.id, false]])

    const bad = await failureOf(registry.save({ ...PROFILE, name: ' ', queryUrl: 'ftp://x', version: 'v4' }))
    expect(bad.code).toBe('validation')
    expect(bad.extra.problems?.map((problem) => problem.field)).toEqual(['name', 'queryUrl', 'version'])
    expect(refusal(() => checkConnection({ ...PROFILE, workspace: '' })).extra.problems).toEqual([{ field: 'workspace', message: 'Workspace: enter the workspace name.' }])
  })

  it('keeps the built-in connection as it is and refuses to change an id it does not know', async () => {
    const { registry } = await open([demo()])
    expect((await failureOf(registry.save({ ...PROFILE, id: 'demo' }))).code).toBe('validation')
    expect((await failureOf(registry.delete('demo'))).code).toBe('validation')
    expect((await failureOf(registry.save({ ...PROFILE, id: 'nobody' }))).message).toBe('There is no connection with id "nobody" to change.')
    expect(refusal(() => registry.get('nobody')).code).toBe('not_found')
    expect(await registry.delete('nobody')).toBe(false)
  })

  it('binds a secret to the auth origin: the account reads it there, and moving the auth host drops it with a notice', async () => {
    const { registry, secrets, sensitive } = await open()
    const { id } = await registry.save(PROFILE)
    expect(await registry.setSecret(id, 's3cret')).toBe('memory')
    expect(sensitive).toContain('s3cret')
    expect(JSON.parse((await secrets.get(secretKey(id)))!)).toEqual({ v: 1, origin: 'https://auth.example.com', secret: 's3cret' })
    expect(await registry.account(id)!.secret()).toBe('s3cret')
    expect((await registry.view(registry.get(id))).hasSecret).toBe(true)

    // Same origin, another path: the secret stays.
    expect((await registry.save({ ...PROFILE, id, authUrl: 'https://auth.example.com/v2' })).notice).toBeUndefined()
    const moved = await registry.save({ ...PROFILE, id, authUrl: 'https://elsewhere.example.com' })
    expect(moved).toMatchObject({ hasSecret: false, notice: SECRET_REENTRY_MESSAGE })
    expect(await secrets.get(secretKey(id))).toBeNull()
  })

  it('will not send a secret entered for another origin, and clears a secret and its cached token', async () => {
    const { registry, secrets } = await open()
    const { id } = await registry.save(PROFILE)
    await secrets.set(secretKey(id), encodeBoundSecret({ origin: 'https://other.example.com', secret: 'theirs' }))
    expect((await failureOf(registry.account(id)!.secret())).message).toBe(SECRET_REENTRY_MESSAGE)
    expect((await registry.view(registry.get(id))).hasSecret).toBe(false)

    await registry.setSecret(id, 'mine')
    await secrets.set(tokenCacheKey(id), 'cached token')
    expect(await registry.clearSecret(id)).toBe(true)
    expect([await secrets.get(secretKey(id)), await secrets.get(tokenCacheKey(id))]).toEqual([null, null])
    expect(await registry.clearSecret(id)).toBe(false)
  })

  it('a profile without a client ID has no account; its target carries the deadline in milliseconds', async () => {
    const { registry } = await open()
    const publicApi = await registry.save({ ...PROFILE, authUrl: '', clientId: '', deadlineSeconds: 7 })
    expect(registry.account(publicApi.id)).toBeNull()
    expect(registry.target(publicApi.id)).toEqual({ key: publicApi.id, queryUrl: PROFILE.queryUrl, version: undefined, account: null, deadlineMs: 7000 })
  })

  it('duplicates a profile as "(copy)", then "(copy 2)", with the secret bound to the same origin', async () => {
    const { registry, secrets } = await open()
    const { id } = await registry.save(PROFILE)
    await registry.setSecret(id, 'shared')
    const first = await registry.duplicate(id)
    const second = await registry.duplicate(id)
    expect([first.name, second.name]).toEqual(['Prod (copy)', 'Prod (copy 2)'])
    expect(first).toMatchObject({ hasSecret: true, builtIn: false })
    expect(await registry.account(second.id)!.secret()).toBe('shared')
    expect(await secrets.get(secretKey(first.id))).toBe(await secrets.get(secretKey(id)))
  })

  it('deletes a profile with its secret and token entries, and forgets it as the last one used', async () => {
    const { registry, secrets, store } = await open()
    const { id } = await registry.save(PROFILE)
    await registry.setSecret(id, 'gone')
    await secrets.set(tokenCacheKey(id), 'token')
    await registry.use(id)
    expect(registry.lastUsed()).toBe(id)
    expect(await registry.delete(id)).toBe(true)
    expect([await secrets.get(secretKey(id)), await secrets.get(tokenCacheKey(id))]).toEqual([null, null])
    expect(store.list()).toEqual([])
    expect(registry.lastUsed()).toBeNull()
  })

  it('a draft checks the form as a save would, uses the typed secret, and gets its own token unless it names the same hosts', async () => {
    const { registry } = await open()
    const saved = await registry.save(PROFILE)
    await registry.setSecret(saved.id, 'stored')

    const same = await registry.draft({ ...PROFILE, id: saved.id })
    expect(same.tokenMode).toBe('check')
    expect(same.connection.id).toMatch(/^check:/)
    expect(await same.account!.secret()).toBe('stored')

    const movedQuery = await registry.draft({ ...PROFILE, id: saved.id, queryUrl: 'https://query2.example.com' })
    expect(movedQuery.tokenMode).toBe('force')
    const typed = await registry.draft({ ...PROFILE, id: saved.id }, 'typed')
    expect(await typed.account!.secret()).toBe('typed')
    // The stored secret is never offered to another auth host.
    const movedAuth = await registry.draft({ ...PROFILE, id: saved.id, authUrl: 'https://evil.example.com' })
    expect((await failureOf(movedAuth.account!.secret())).message).toBe(SECRET_REENTRY_MESSAGE)

    const noClient = await failureOf(registry.draft({ ...PROFILE, clientId: '' }, 'typed'))
    expect(noClient.extra.problems).toEqual([{ field: 'clientId', message: 'Client ID: a client secret needs the client ID it belongs to.' }])
    expect((await registry.draft({ ...PROFILE, authUrl: '', clientId: '' })).account).toBeNull()
  })
})
