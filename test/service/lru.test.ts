import { describe, expect, it } from 'vitest'
import { Lru } from '../../src/service/query/lru'

describe('the LRU', () => {
  it('evicts the least recently used entries past its count or its weight', () => {
    const lru = new Lru<string, number[]>(3, 10, (value) => value.length)
    lru.set('a', [1, 2, 3])
    lru.set('b', [1, 2, 3])
    lru.get('a')
    lru.set('c', [1, 2, 3, 4, 5])
    expect([lru.get('a'), lru.get('b'), lru.get('c')?.length]).toEqual([[1, 2, 3], undefined, 5])
    expect(lru.weight).toBe(8)
    lru.set('d', [1])
    lru.set('e', [1])
    expect(lru.size).toBe(3)
    expect(lru.get('a')).toBeUndefined()
  })

  it('does not keep a value heavier than its whole budget', () => {
    const lru = new Lru<string, number[]>(3, 2, (value) => value.length)
    lru.set('small', [1])
    lru.set('huge', [1, 2, 3])
    expect(lru.get('huge')).toBeUndefined()
    expect(lru.get('small')).toEqual([1])
  })

  it('replaces a key set again, its old weight given back', () => {
    const lru = new Lru<string, number[]>(3, 10, (value) => value.length)
    lru.set('a', [1, 2, 3, 4])
    lru.set('a', [1])
    expect([lru.size, lru.weight, lru.get('a')]).toEqual([1, 1, [1]])
    // Set again with a value past the budget, the key holds nothing rather than its old value.
    lru.set('a', Array.from({ length: 11 }, () => 0))
    expect([lru.size, lru.weight, lru.get('a')]).toEqual([0, 0, undefined])
  })

  it('is bounded by count alone when given no weight', () => {
    const lru = new Lru<number, string>(2)
    for (const key of [1, 2, 3]) lru.set(key, String(key))
    expect([lru.get(1), lru.get(2), lru.get(3), lru.weight]).toEqual([undefined, '2', '3', 0])
  })
})
