import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { openSecretStore, osSecretStore, type Keytar } from '../../src/main/credentials/open-secret-store'
import { failureOf } from '../fixtures/failure-of'
import { KEYCHAIN_SERVICE, keychainMissing, PATIENT_KEYCHAIN } from './support'

/**
 * Opening the keychain: the real OS keychain where one answers (run under the
 * keyring lock, QE_TEST_SESSION); a keychain that refuses every call or never
 * answers is a keytar of the test's making, as test/main/fixtures/fake-keytar.ts
 * gives the browser host: no OS keychain can be made to do that on demand.
 */

const missing = await keychainMissing()
const osKeytar = () => createRequire(import.meta.url)('keytar') as Keytar

const refusing: Keytar = {
  getPassword: () => Promise.reject(new Error('The name org.freedesktop.secrets was not provided')),
  setPassword: () => Promise.reject(new Error('locked')),
  deletePassword: () => Promise.reject(new Error('locked')),
}
const silent: Keytar = { getPassword: () => new Promise(() => undefined), setPassword: () => new Promise(() => undefined), deletePassword: () => new Promise(() => undefined) }

describe.skipIf(missing)('the OS keychain', () => {
  it('opens as "os", keeps, reads back and deletes a secret, and leaves no probe entry behind', async () => {
    const store = await openSecretStore(KEYCHAIN_SERVICE, undefined, PATIENT_KEYCHAIN)
    expect([store.kind, store.detail]).toEqual(['os', 'Secrets are kept in the OS keychain.'])
    expect(await osKeytar().getPassword(KEYCHAIN_SERVICE, '__probe__')).toBeNull()
    await store.set('secret:open-secret-store', 'kept')
    expect(await osKeytar().getPassword(KEYCHAIN_SERVICE, 'secret:open-secret-store')).toBe('kept')
    expect(await store.get('secret:open-secret-store')).toBe('kept')
    expect(await store.delete('secret:open-secret-store')).toBe(true)
    expect(await store.delete('secret:open-secret-store')).toBe(false)
    expect(await store.get('secret:open-secret-store')).toBeNull()
    expect(store.held()).toBe(false)
  })
})

describe('a keychain that does not serve', () => {
  it('one that refuses its probe gives a memory store that says why, and works', async () => {
    const store = await openSecretStore('qe-refusing', refusing, { probeMs: 60_000, callMs: 60_000 })
    expect(store.kind).toBe('memory')
    expect(store.detail).toBe(
      'No usable OS keychain (the OS keychain did not answer: The name org.freedesktop.secrets was not provided). Secrets are kept in memory for this run only and are never written to disk.',
    )
    await store.set('a', 'b')
    expect(await store.get('a')).toBe('b')
  })

  it('one that reads but refuses writes counts as none', async () => {
    const readsOnly: Keytar = { ...refusing, getPassword: async () => null }
    const store = await openSecretStore('qe-reads-only', readsOnly)
    expect(store.kind).toBe('memory')
    expect(store.detail).toContain('the OS keychain answers but refused to store a secret: locked; is it locked?')
  })

  it('a refused call after opening names the keychain and the action', async () => {
    const store = osSecretStore('qe-refusing', refusing, 60_000)
    const error = await failureOf(store.set('secret:x', 'value'))
    expect([error.code, error.message]).toEqual(['keychain', 'The OS keychain refused to store the secret (locked). Unlock the keychain and try again.'])
    expect((await failureOf(store.get('secret:x'))).message).toMatch(/^The OS keychain refused to read the secret \(/)
    expect(store.kind).toBe('os')
  })

  it('a call that never answers: the keychain is given up for the run, later calls go to memory, the stuck call is held', async () => {
    const store = osSecretStore('qe-silent', silent, 1)
    const error = await failureOf(store.get('secret:x'))
    expect(error.message).toMatch(/^The OS keychain did not answer within 0\.001 s, so it is no longer used in this run/)
    expect([store.kind, store.held()]).toEqual(['memory', true])
    expect(store.detail).toMatch(/^The OS keychain stopped answering/)
    await store.set('secret:x', 'in memory')
    expect(await store.get('secret:x')).toBe('in memory')
  })

  it('a keychain that never answers its probe opens as memory, holding the probe', async () => {
    const store = await openSecretStore('qe-silent', silent, { probeMs: 1 })
    expect([store.kind, store.held()]).toEqual(['memory', true])
  })
})
