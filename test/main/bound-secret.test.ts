import { describe, expect, it } from 'vitest'
import { decodeBoundSecret, encodeBoundSecret, originOf } from '../../src/main/credentials/bound-secret'

/** A client secret kept with the auth origin it was entered for. */

describe('bound secrets', () => {
  it('the origin of an auth URL: scheme, host and a port that is not the default; "" for what does not parse', () => {
    expect(originOf('https://auth.example.com:443/api/auth?x=1')).toBe('https://auth.example.com')
    expect(originOf('http://127.0.0.1:8080/a')).toBe('http://127.0.0.1:8080')
    expect(originOf('HTTPS://Auth.Example.COM')).toBe('https://auth.example.com')
    expect(originOf('not a url')).toBe('')
    expect(originOf('')).toBe('')
  })

  it('reads back what it writes, a secret that looks like JSON included', () => {
    for (const secret of ['s3cret', '{"v":1}', '', 'ünïcode "quoted"']) {
      const text = encodeBoundSecret({ origin: 'https://auth.example.com', secret })
      expect(decodeBoundSecret(text, 'https://legacy.example.com')).toEqual({ origin: 'https://auth.example.com', secret })
    }
    expect(encodeBoundSecret({ origin: 'https://a.example', secret: 'x' })).toBe('{"v":1,"origin":"https://a.example","secret":"x"}')
  })

  it('an entry from before secrets were bound (plain text, or JSON of another shape) belongs to the legacy origin', () => {
    expect(decodeBoundSecret('plain-secret', 'https://old.example.com')).toEqual({ origin: 'https://old.example.com', secret: 'plain-secret' })
    expect(decodeBoundSecret('{not json', 'https://old.example.com')).toEqual({ origin: 'https://old.example.com', secret: '{not json' })
    expect(decodeBoundSecret('{"v":2,"origin":"https://a","secret":"s"}', '')).toEqual({ origin: '', secret: '{"v":2,"origin":"https://a","secret":"s"}' })
    expect(decodeBoundSecret('{"v":1,"origin":5,"secret":"s"}', 'o')).toEqual({ origin: 'o', secret: '{"v":1,"origin":5,"secret":"s"}' })
  })
})
