import { beforeAll, describe, expect, it } from 'vitest'
import type { Step } from '../../src/shared/query/model'
import { loadDataset } from '../../src/service/dataset/load'
import type { Dataset } from '../../src/service/dataset/model'
import { buildTextIndex, type TextIndex } from '../../src/service/dataset/text-index'
import { runChain } from '../../src/service/query/chain'
import { planChain } from '../../src/service/query/chain-plan'
import { createChainCache, stepKey } from '../../src/service/query/chain-cache'
import type { RankingConfig, RunContext } from '../../src/service/query/endpoint'
import { Lru } from '../../src/service/query/lru'
import type { ResultSet } from '../../src/service/query/result-set'
import { UNLIMITED } from '../../src/service/query/work-budget'
import { hostedWorkspaces } from '../../src/service/workspace/workspaces'

/**
 * The fast paths of the query stages: the chain cache must give exactly what
 * running the chain gives, and the filters over city ordinals exactly what the
 * filters over objects give.
 */

const api = hostedWorkspaces().get('world')!.apis.get('places')!
const TEXT: RankingConfig = { name: 'default', ranking: 'text', xml: false }
const POPULATION: RankingConfig = { name: 'production', ranking: 'text-and-population', xml: true }

let dataset: Dataset
let text: TextIndex
beforeAll(() => {
  dataset = loadDataset()
  text = buildTextIndex(dataset.cities)
})

const step = (endpoint: string, parameters: Record<string, string> = {}) => ({ endpoint, parameters }) satisfies Step
const ids = (set: ResultSet) => set.items.map((item) => [item.p, ...item.tuple.map((cell) => (typeof cell === 'string' ? cell : cell.id))])

function run(steps: Step[], config = TEXT, cache = createChainCache()): ResultSet {
  const context: RunContext = { dataset, text, config, budget: UNLIMITED }
  return runChain(planChain(steps, api), context, cache).result
}

/** The same set without its ordinals, so each later stage takes its object path. */
function withoutOrdinals(set: ResultSet): ResultSet {
  return { output: set.output, rowClass: set.rowClass, items: set.items }
}

const CHAINS: Step[][] = [
  [step('search', { query: 'san' }), step('continent:FILTER', { value: '1("Americas")' }), step('country:FILTER', { value: '1("US")|1("MX")' })],
  [step('search', { query: 'san' }), step('continent')],
  [step('search', { query: 'paris' }), step('country')],
  [step('search', { query: 'new york' }), step('population', { min: '100000' }), step('sort', { by: 'name' })],
  [step('population', { min: '1000000' }), step('country:FILTER', { value: '1("FR")|1("DE")' })],
  [step('continent:FILTER', { value: '1("Europe")|1("Unknown")' }), step('population', { max: '2000' }), step('continent')],
  [step('countries'), step('continent:FILTER', { value: '1("Europe")' })],
]

describe('the chain cache', () => {
  it('answers a repeated chain, and every chain sharing a prefix, exactly as a fresh run does', () => {
    const shared = createChainCache()
    for (const config of [TEXT, POPULATION]) {
      for (const chain of CHAINS) {
        const fresh = ids(run(chain, config))
        expect(ids(run(chain, config, shared))).toEqual(fresh)
        expect(ids(run(chain, config, shared))).toEqual(fresh)
        expect(ids(run(chain.slice(0, 1), config, shared))).toEqual(ids(run(chain.slice(0, 1), config)))
      }
    }
  })

  it('keeps the rankings apart', () => {
    const shared = createChainCache()
    const chain = [step('search', { query: 'paris' })]
    const byText = ids(run(chain, TEXT, shared))
    const byPopulation = ids(run(chain, POPULATION, shared))
    expect(byPopulation).not.toEqual(byText)
    expect(ids(run(chain, TEXT, shared))).toEqual(byText)
  })

  it('caches nothing for a step that fails, so the error comes again', () => {
    const shared = createChainCache()
    const chain = [step('search', { query: 'san' }), step('population', { min: '5', max: '2' })]
    expect(() => run(chain, TEXT, shared)).toThrow(/contradictory/)
    expect(() => run(chain, TEXT, shared)).toThrow(/contradictory/)
  })

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
      const context: RunContext = { dataset, text, config: TEXT, budget: UNLIMITED }
      const fast = endpoint.run(input, stage.parameters, context)
      const slow = endpoint.run(withoutOrdinals(input), stage.parameters, context)
      expect(fast.items.length).toBeGreaterThan(0)
      expect(ids(fast)).toEqual(ids(slow))
      if (fast.cities) expect(Array.from(fast.cities, (city) => dataset.cities[city]!.id)).toEqual(fast.items.map((item) => (item.tuple[0] as { id: string }).id))
    })
  }
})

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
})
