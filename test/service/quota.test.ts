import { describe, expect, it } from 'vitest'
import { TokenQuota } from '../../src/service/auth/quota'

/** Token requests per account and workspace in a sliding window; past the limit, when the oldest leaves the window. On a clock the test moves. */

function quota(limit: number, windowMs = 3_600_000) {
  let now = Date.UTC(2026, 0, 1, 9)
  const clock = { advance: (ms: number) => void (now += ms) }
  return { quota: new TokenQuota(limit, windowMs, () => now), clock }
}

describe('TokenQuota', () => {
  it('allows the limit in the window, then refuses with the seconds until the oldest request leaves it', () => {
    const { quota: q, clock } = quota(2)
    expect(q.take('demo')).toEqual({ allowed: true })
    clock.advance(600_000)
    expect(q.take('demo')).toEqual({ allowed: true })
    clock.advance(60_000)
    // The oldest was 11 minutes ago: it leaves the hour in 49 minutes.
    expect(q.take('demo')).toEqual({ allowed: false, retryAfterSeconds: 2940 })
  })

  it('slides: a request that left the window frees its place, and a refusal takes none', () => {
    const { quota: q, clock } = quota(1, 10_000)
    expect(q.take('demo').allowed).toBe(true)
    clock.advance(9_000)
    expect(q.take('demo')).toEqual({ allowed: false, retryAfterSeconds: 1 })
    clock.advance(1_000)
    // Exactly a window later the first request is out of it; the refused one never counted.
    expect(q.take('demo')).toEqual({ allowed: true })
  })

  it('counts each key apart', () => {
    const { quota: q } = quota(1)
    expect(q.take('demo\u0000world').allowed).toBe(true)
    expect(q.take('demo\u0000sandbox').allowed).toBe(true)
    expect(q.take('other\u0000world').allowed).toBe(true)
    expect(q.take('demo\u0000world').allowed).toBe(false)
  })

  it('says to retry in 1 second at least, never 0', () => {
    const { quota: q, clock } = quota(1, 10_000)
    q.take('demo')
    clock.advance(9_999)
    expect(q.take('demo')).toEqual({ allowed: false, retryAfterSeconds: 1 })
  })
})
