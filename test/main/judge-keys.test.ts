import { createRequire } from 'node:module'
import { afterAll, describe, expect, it } from 'vitest'
import { openSecretStore, type Keytar } from '../../src/main/credentials/open-secret-store'
import { memorySecretStore, type SecretStore } from '../../src/main/credentials/secret-store'
import { envJudgeKey, judgeKeyAccount, JudgeKeys } from '../../src/main/judges/judge-keys'
import { canaryKey } from '../fixtures/llm-servers'
import { failureOf } from '../fixtures/failure-of'
import { KEYCHAIN_SERVICE, keychainMissing, PATIENT_KEYCHAIN } from './support'

/**
 * A judge's key in the keychain, bound to the origin of its base URL: the
 * real OS keychain where one answers (run under the keyring lock,
 * QE_TEST_SESSION), and the in-memory store the app falls back to.
 */

const missing = await keychainMissing()
const osKeytar = () => createRequire(import.meta.url)('keytar') as Keytar
const written: string[] = []

afterAll(async () => {
  if (missing) return
  for (const account of written) await osKeytar().deletePassword(KEYCHAIN_SERVICE, account)
})

const stores: Array<[string, boolean, () => Promise<SecretStore>]> = [
  ['the OS keychain', !!missing, () => openSecretStore(KEYCHAIN_SERVICE, undefined, PATIENT_KEYCHAIN)],
  ['memory (no usable keychain)', false, async () => memorySecretStore('No usable OS keychain (test).')],
]

describe.each(stores)('judge keys in %s', (_name, skip, open) => {
  it.skipIf(skip)('a key is given back for the exact origin it was stored for, and for no other', async () => {
    const secrets = await open()
    const keys = new JudgeKeys(secrets)
    const key = canaryKey()
    const base = 'http://127.0.0.1:18080/v1'
    written.push(judgeKeyAccount('http://127.0.0.1:18080'))
    expect(await keys.set(base, `  ${key}\n`)).toEqual({ origin: 'http://127.0.0.1:18080', stored: true, storage: secrets.kind })
    // Another path of the same origin is the same provider.
    expect(await keys.get('http://127.0.0.1:18080/other/path?x=1')).toBe(key)
    for (const other of ['http://127.0.0.1:18081/v1', 'https://127.0.0.1:18080/v1', 'http://localhost:18080/v1', 'http://127.0.0.2:18080/v1']) {
      expect([other, await keys.get(other)]).toEqual([other, null])
      expect(await keys.status(other)).toMatchObject({ stored: false })
    }
    expect(await keys.status(base)).toEqual({ origin: 'http://127.0.0.1:18080', stored: true, storage: secrets.kind })
    expect(await keys.clear(base)).toBe(true)
    expect([await keys.get(base), await keys.clear(base)]).toEqual([null, false])
  })

  it.skipIf(skip)('the key is stored bound to its origin, as connection secrets are', async () => {
    const secrets = await open()
    const key = canaryKey()
    written.push(judgeKeyAccount('https://api.example.test'))
    await new JudgeKeys(secrets).set('https://API.example.test:443/v1', key)
    expect(JSON.parse((await secrets.get('judge-key:https://api.example.test'))!)).toEqual({ v: 1, origin: 'https://api.example.test', secret: key })
    if (secrets.kind === 'os') expect(JSON.parse((await osKeytar().getPassword(KEYCHAIN_SERVICE, 'judge-key:https://api.example.test'))!).secret).toBe(key)
    await new JudgeKeys(secrets).clear('https://api.example.test')
  })

  it.skipIf(skip)('an entry under an origin\'s account but bound to another origin, or not bound at all, is not used', async () => {
    const secrets = await open()
    const keys = new JudgeKeys(secrets)
    written.push(judgeKeyAccount('http://127.0.0.1:18090'))
    await secrets.set('judge-key:http://127.0.0.1:18090', JSON.stringify({ v: 1, origin: 'http://evil.test', secret: 'sk-moved' }))
    expect(await keys.get('http://127.0.0.1:18090')).toBeNull()
    await secrets.set('judge-key:http://127.0.0.1:18090', 'sk-plain')
    expect(await keys.get('http://127.0.0.1:18090')).toBeNull()
    expect(await keys.clear('http://127.0.0.1:18090')).toBe(true)
  })
})

describe('judge keys: input', () => {
  const keys = new JudgeKeys(memorySecretStore('test'))

  it('a base URL that is not an http(s) address is refused, naming the field', async () => {
    expect((await failureOf(keys.get('not a url'))).message).toBe("Base URL: is not an address; a judge's key is kept for the origin of its base URL.")
    expect((await failureOf(keys.set('file:///etc/passwd', 'k'))).message).toBe("Base URL: must be an http(s) address (not file:); a judge's key is kept for the origin of its base URL.")
    expect((await failureOf(keys.status('ftp://x.test'))).code).toBe('validation')
  })

  it('a key that is empty or holds a line break inside is refused, never stored', async () => {
    expect((await failureOf(keys.set('http://127.0.0.1:1', '   '))).message).toBe('Key: is empty.')
    expect((await failureOf(keys.set('http://127.0.0.1:1', 'sk-a\nX-Other: b'))).message).toBe('Key: has a control character (a line break?) in it; paste the key alone.')
    expect(await keys.get('http://127.0.0.1:1')).toBeNull()
  })

  it('tells the logger every key it stores or reads, so a log line never holds one', async () => {
    const told: string[] = []
    const telling = new JudgeKeys(memorySecretStore('test'), (value) => told.push(value))
    await telling.set('http://127.0.0.1:2', 'sk-told-1')
    await telling.get('http://127.0.0.1:2')
    expect(told).toEqual(['sk-told-1', 'sk-told-1'])
  })
})

describe('envJudgeKey', () => {
  it('reads QUERY_EXPLORER_JUDGE_KEY, trimmed; unset or blank is none', () => {
    expect(envJudgeKey({ QUERY_EXPLORER_JUDGE_KEY: ' sk-env \n' })).toBe('sk-env')
    expect(envJudgeKey({ QUERY_EXPLORER_JUDGE_KEY: '  ' })).toBeNull()
    expect(envJudgeKey({})).toBeNull()
    expect(envJudgeKey({ OPENAI_API_KEY: 'sk-not-ours' })).toBeNull()
  })
})
