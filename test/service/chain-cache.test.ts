import { describe, expect, it } from 'vitest'
import { stepKey } from '../../src/service/query/chain-cache'
import type { ResultSet } from '../../src/service/query/result-set'
import { api, ids, run, step, worldContext, worldData } from '../fixtures/world-chains'

/**
 * The fast paths of the query stages: the chain cache's keys, and the filters
 * over city ordinals, which must give exactly what the filters over objects
 * give. (That a chain run through the cache gives what a fresh run gives is
 * runChain's: test/service/chain.test.ts.)
 */

/** The same set without its ordinals, so each later stage takes its object path. */
function withoutOrdinals(set: ResultSet): ResultSet {
  return { output: set.output, rowClass: set.rowClass, items: set.items }
}

describe('the chain cache', () => {
  it('keys steps so that no value can pose as another parameter', () => {
    expect(stepKey('search', { query: 'a' })).not.toBe(stepKey('search', { query: 'a', fields: '' }))
    expect(stepKey('population', { min: '1', max: '2' })).not.toBe(stepKey('population', { min: '1max2' }))
  })
})

describe('the filters over city ordinals', () => {
  const stages = [
    step('continent:FILTER', { value: '1("Americas")|1("Europe")' }),
    step('country:FILTER', { value: '1("US")|1("FR")|1("ZZ")' }),
    step('population', { min: '5000', max: '200000' }),
    step('continent'),
    step('country'),
  ]
  for (const stage of stages) {
    it(`give what the object path gives: ${stage.endpoint}`, () => {
      const input = run([step('search', { query: 'san' })])
      expect(input.cities?.length).toBe(input.items.length)
      const endpoint = api.endpoints.get(stage.endpoint)!
      const context = worldContext()
      const fast = endpoint.run(input, stage.parameters, context)
      const slow = endpoint.run(withoutOrdinals(input), stage.parameters, context)
      expect(fast.items.length).toBeGreaterThan(0)
      expect(ids(fast)).toEqual(ids(slow))
      const { dataset } = worldData()
      if (fast.cities) expect(Array.from(fast.cities, (city) => dataset.cities[city]!.id)).toEqual(fast.items.map((item) => (item.tuple[0] as { id: string }).id))
    })
  }
})
