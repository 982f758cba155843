import { describe, expect, it } from 'vitest'
import type { Step } from '../../src/shared/query/model'
import { buildDataset } from '../../src/service/dataset/load'
import { buildTextIndex } from '../../src/service/dataset/text-index'
import { runChain } from '../../src/service/query/chain'
import { createChainCache } from '../../src/service/query/chain-cache'
import { planChain } from '../../src/service/query/chain-plan'
import type { RunContext } from '../../src/service/query/endpoint'
import { UNLIMITED } from '../../src/service/query/work-budget'
import { serviceRefusal } from '../fixtures/service-refusal'
import { tinySource } from '../fixtures/tiny-dataset'
import { api, ids, POPULATION, run, step, TEXT } from '../fixtures/world-chains'

/**
 * A planned chain run (src/service/query/chain.ts): each stacked endpoint on
 * the result of the one before, the first on every city, the steps after the
 * longest prefix the chain cache holds. On the six cities of the tiny
 * dataset, worked out by hand, and on the world dataset against a fresh run.
 */

const tinyDataset = buildDataset(tinySource())
const tiny: RunContext = { dataset: tinyDataset, text: buildTextIndex(tinyDataset.cities), config: TEXT, budget: UNLIMITED }
const runTiny = (steps: Step[]) => runChain(planChain(steps, api), tiny, createChainCache())

describe('runChain', () => {
  it('runs a stackable endpoint that stands first on every city, all equally likely, in id order', () => {
    // By id as text: 1 (pop. 1,001), 1000 (2,000), 1853909 Ōsaka (2.7 M), 2657896 Zürich (400,000), 3448439 São Paulo (12 M), 99 (5,000).
    expect(ids(runTiny([step('population')]).result)).toEqual([[1, '1'], [1, '1000'], [1, '1853909'], [1, '2657896'], [1, '3448439'], [1, '99']])
    const { result, last } = runTiny([step('population', { min: '1000000' })])
    expect(ids(result)).toEqual([[1, '1853909'], [1, '3448439']])
    expect(last.name).toBe('population')
  })

  it('runs each endpoint on the result of the one before, and names the last', () => {
    // The cities of more than 1,500 people, counted by country: BR 2 (São Paulo, 1000), JP 2 (Ōsaka, 99), CH 1 (Zürich).
    const { result, last } = runTiny([step('population', { min: '1500' }), step('country')])
    expect(ids(result)).toEqual([[0.4, 'BR'], [0.4, 'JP'], [0.2, 'CH']])
    expect(result.rowClass).toBe('country')
    expect(last.name).toBe('country')
  })

  it('refuses an endpoint stacked on results it does not take, with a 400 naming both and the classes', () => {
    expect(serviceRefusal(() => runTiny([step('continent'), step('country:FILTER', { value: '1("BR")' })]))).toEqual({
      status: 400,
      message: 'The endpoint "country:FILTER" cannot be stacked on "continent": it takes city results, and "continent" gives continent results',
    })
  })

  describe('through the chain cache', () => {
    const CHAINS: Step[][] = [
      [step('search', { query: 'san' }), step('continent:FILTER', { value: '1("Americas")' }), step('country:FILTER', { value: '1("US")|1("MX")' })],
      [step('search', { query: 'san' }), step('continent')],
      [step('search', { query: 'paris' }), step('country')],
      [step('search', { query: 'new york' }), step('population', { min: '100000' }), step('sort', { by: 'name' })],
      [step('population', { min: '1000000' }), step('country:FILTER', { value: '1("FR")|1("DE")' })],
      [step('continent:FILTER', { value: '1("Europe")|1("Unknown")' }), step('population', { max: '2000' }), step('continent')],
      [step('countries'), step('continent:FILTER', { value: '1("Europe")' })],
    ]

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
  })
})
