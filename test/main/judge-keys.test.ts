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
    expect((await failureOf(keys.set('http://127.0.0.1:1', 'Bearer sk-a'))).message).toBe('Key: has white space inside it; paste the key alone (a key is one word).')
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
  const BASE = 'https://api.example.com/v1'
  const withOrigin = (key: string) => ({ QUERY_EXPLORER_JUDGE_KEY: key, QUERY_EXPLORER_JUDGE_ORIGIN: 'https://api.example.com' })

  it('reads QUERY_EXPLORER_JUDGE_KEY, trimmed, for the origin QUERY_EXPLORER_JUDGE_ORIGIN names; unset or blank is none', () => {
    expect(envJudgeKey(withOrigin(' sk-env \n'), BASE)).toBe('sk-env')
    expect(envJudgeKey({ ...withOrigin('sk-env'), QUERY_EXPLORER_JUDGE_ORIGIN: 'https://api.example.com:443/' }, BASE)).toBe('sk-env')
    expect(envJudgeKey({ QUERY_EXPLORER_JUDGE_KEY: '  ' }, BASE)).toBeNull()
    expect(envJudgeKey({}, BASE)).toBeNull()
    expect(envJudgeKey({ OPENAI_API_KEY: 'sk-not-ours' }, BASE)).toBeNull()
  })

  it('refuses a key with a control character or white space inside, naming the variable and the rule, never the key', () => {
    const key = 'sk-canary-0123456789abcdef'
    const cases: [string, string][] = [
      [`${key.slice(0, 14)}\n${key.slice(14)}`, 'QUERY_EXPLORER_JUDGE_KEY: has a control character (a line break?) in it; set the key alone.'],
      [`${key.slice(0, 14)}\t${key.slice(14)}`, 'QUERY_EXPLORER_JUDGE_KEY: has a control character (a line break?) in it; set the key alone.'],
      [`${key.slice(0, 14)} ${key.slice(14)}`, 'QUERY_EXPLORER_JUDGE_KEY: has white space inside it; set the key alone (a key is one word).'],
    ]
    for (const [value, message] of cases) expect(() => envJudgeKey(withOrigin(value), BASE)).toThrow(message)
  })

  it('sends the key only to the origin QUERY_EXPLORER_JUDGE_ORIGIN names: missing, not an origin, or another is refused', () => {
    const rule = "the key in QUERY_EXPLORER_JUDGE_KEY is only sent to the origin QUERY_EXPLORER_JUDGE_ORIGIN names (scheme://host[:port]), which must be the judge's base URL's; nothing was sent."
    expect(() => envJudgeKey({ QUERY_EXPLORER_JUDGE_KEY: 'sk-env' }, BASE)).toThrow(`QUERY_EXPLORER_JUDGE_ORIGIN: is not set: ${rule}`)
    expect(() => envJudgeKey(withOrigin('sk-env'), 'http://attacker.example:8080/v1')).toThrow(`QUERY_EXPLORER_JUDGE_ORIGIN: is https://api.example.com, but the judge's base URL is on http://attacker.example:8080: ${rule}`)
    expect(() => envJudgeKey(withOrigin('sk-env'), 'http://api.example.com/v1')).toThrow('but the judge\'s base URL is on http://api.example.com:')
    for (const origin of ['sk-put-here-by-mistake', 'https://api.example.com/v1', 'ftp://api.example.com']) {
      let message = ''
      try {
        envJudgeKey({ QUERY_EXPLORER_JUDGE_KEY: 'sk-env', QUERY_EXPLORER_JUDGE_ORIGIN: origin }, BASE)
      } catch (error) {
        message = (error as Error).message
      }
      expect(message, origin).toMatch(/^QUERY_EXPLORER_JUDGE_ORIGIN: is not an origin/)
      expect(message).not.toContain('sk-')
    }
  })
})
