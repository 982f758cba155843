import { describe, expect, it } from 'vitest'
import type { DataObject } from '../../src/service/dataset/model'
import { itemKey, keepCities, keepItems, objectOf, objectSet, probability, sortItems } from '../../src/service/query/result-set'
import { WorkBudget } from '../../src/service/query/work-budget'
import { item } from '../fixtures/service-answer'
import { serviceRefusal } from '../fixtures/service-refusal'

/** What flows between stacked endpoints: items kept ranked by probability, then by key, so pages repeat exactly. */

const city = (id: string): DataObject => ({ id, class: ['city'], attributes: { name: id } })

describe('probability', () => {
  it('rounds to six decimals', () => {
    expect([probability(0.1234565001), probability(1 / 3), probability(1), probability(0)]).toEqual([0.123457, 0.333333, 1, 0])
  })
})

describe('itemKey', () => {
  it("is a single object's id, else every cell's id or text joined by NUL", () => {
    expect(itemKey(item(1, city('7')))).toBe('7')
    expect(itemKey(item(1, city('7'), 'a b'))).toBe('7\u0000a b')
    expect(itemKey(item(1, 's', 'p', 'o'))).toBe('s\u0000p\u0000o')
  })
})

describe('sortItems', () => {
  it('ranks by probability, highest first, ties by key as text', () => {
    const items = [item(0.5, city('2')), item(0.9, city('9')), item(0.5, city('10')), item(0.5, city('1'))]
    expect(sortItems(items).map((entry) => [entry.p, objectOf(entry).id])).toEqual([
      [0.9, '9'],
      [0.5, '1'],
      [0.5, '10'],
      [0.5, '2'],
    ])
    expect(sortItems([])).toEqual([])
  })

  it('ticks its budget on every comparison, so a long sort stops when the time is up', () => {
    let clock = 0
    const budget = new WorkBudget(0, () => clock)
    const items = Array.from({ length: 5000 }, (_, i) => item(1, city(String(i))))
    clock = 1
    expect(serviceRefusal(() => sortItems(items, budget)).status).toBe(503)
  })
})

describe('sets of objects', () => {
  const items = [item(0.9, city('a')), item(0.5, city('b')), item(0.1, city('c'))]

  it('carries city ordinals only when known', () => {
    expect(objectSet('city', items)).toEqual({ output: ['OBJ'], rowClass: 'city', items })
    expect('cities' in objectSet('city', items)).toBe(false)
    expect(objectSet('city', items, Int32Array.from([4, 5, 6])).cities).toEqual(Int32Array.from([4, 5, 6]))
    expect(keepItems(objectSet('country', items), items.slice(1))).toEqual({ output: ['OBJ'], rowClass: 'country', items: items.slice(1) })
  })

  it('keeps the cities whose ordinal passes, in their order, with their ordinals', () => {
    const input = objectSet('city', items, Int32Array.from([10, 11, 12]))
    const kept = keepCities(input, input.cities!, (ordinal) => ordinal !== 11)
    expect(kept.items).toEqual([items[0], items[2]])
    expect(Array.from(kept.cities!)).toEqual([10, 12])
    expect(keepCities(input, input.cities!, () => false)).toEqual({ output: ['OBJ'], rowClass: 'city', items: [], cities: new Int32Array(0) })
  })
})
