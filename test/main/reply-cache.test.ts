import { describe, expect, it } from 'vitest'
import { ReplyCache } from '../../src/main/http/reply-cache'
import type { QueryReply } from '../../src/shared/ipc/contract'

/** Identical requests share one answer for a short while, bounded in entries and bytes, the least recently used going first. */

const reply = (bytes: number, body: unknown = null): QueryReply => ({
  url: 'http://127.0.0.1/query',
  status: 200,
  contentType: 'application/json',
  bytes,
  body,
  timings: { connectMs: 0, firstByteMs: 1, totalMs: 2 } as QueryReply['timings'],
  cached: false,
})

describe('reply cache', () => {
  it('gives an answer back until its time is up, on the clock it is given', () => {
    let now = 1_000
    const cache = new ReplyCache({ ttlMs: 30_000 }, () => now)
    const answer = reply(10, { items: [] })
    cache.set('a', answer)
    now += 29_999
    expect(cache.get('a')).toBe(answer)
    now += 1
    expect(cache.get('a')).toBeNull()
    expect(cache.size).toBe(0)
    expect(cache.get('never set')).toBeNull()
  })

  it('keeps at most maxEntries, forgetting the least recently used first', () => {
    const cache = new ReplyCache({ maxEntries: 2 }, () => 0)
    cache.set('a', reply(1))
    cache.set('b', reply(1))
    // Reading a makes b the least recently used.
    cache.get('a')
    cache.set('c', reply(1))
    expect([cache.get('a') !== null, cache.get('b') !== null, cache.get('c') !== null]).toEqual([true, false, true])
  })

  it('bounds the bytes kept (answer and key), and never keeps an answer over a quarter of them', () => {
    // Each entry weighs its bytes plus its key's length: 20 + 1.
    const cache = new ReplyCache({ maxBytes: 100 }, () => 0)
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, reply(20))
    // 4 × 21 = 84 ≤ 100: all kept; one more makes 105, and a (the least recently used) goes.
    expect(cache.size).toBe(4)
    cache.set('e', reply(20))
    expect([cache.get('a'), cache.get('b') !== null, cache.get('e') !== null, cache.size]).toEqual([null, true, true, 4])
    // 25 + 1 > 100 / 4: not kept at all.
    cache.set('f', reply(25))
    expect(cache.get('f')).toBeNull()
  })

  it('keeps nothing when its time is 0, and forgets everything on clear', () => {
    const off = new ReplyCache({ ttlMs: 0 }, () => 0)
    off.set('a', reply(1))
    expect(off.get('a')).toBeNull()
    const cache = new ReplyCache({}, () => 0)
    cache.set('a', reply(1))
    cache.set('a', reply(2))
    expect(cache.size).toBe(1)
    expect(cache.get('a')?.bytes).toBe(2)
    cache.clear()
    expect(cache.size).toBe(0)
  })
})
