import { describe, expect, it } from 'vitest'
import { buildDataset } from '../../src/service/dataset/load'
import { buildTextIndex } from '../../src/service/dataset/text-index'
import type { EndpointDefinition, RunContext } from '../../src/service/query/endpoint'
import { facetEndpoints, selectedIds } from '../../src/service/query/endpoints/facets'
import { objectSet, type ResultSet } from '../../src/service/query/result-set'
import { UNLIMITED } from '../../src/service/query/work-budget'
import { serviceRefusal } from '../fixtures/service-refusal'
import { tinySource } from '../fixtures/tiny-dataset'

/**
 * The facet endpoints of the demo service (src/service/query/endpoints/facets.ts),
 * on the six cities of the tiny dataset, worked out by hand:
 *   BR (Americas): 3448439 São Paulo, 1000 San San
 *   CH (Unknown):  2657896 Zürich, 1 (no name)
 *   JP (Unknown):  1853909 Ōsaka-shi, 99 𝔊ötterdämmerung
 * Each endpoint is run on the cities with their ordinals (the columns' path)
 * and without (the objects' path): both must give the same.
 */

const dataset = buildDataset(tinySource())
const context: RunContext = { dataset, text: buildTextIndex(dataset.cities), config: { name: 'default', ranking: 'text', xml: false }, budget: UNLIMITED }
const endpoint = (name: string): EndpointDefinition => facetEndpoints.find((definition) => definition.name === name)!

/** Every city, all equally likely, in id order: with ordinals (as a chain's first step gives them) and without. */
const withOrdinals = objectSet('city', dataset.citiesById.map((city) => ({ p: 1, tuple: [city] })), dataset.columns.byId)
const withoutOrdinals: ResultSet = { output: withOrdinals.output, rowClass: 'city', items: withOrdinals.items }

/** The endpoint's result on both inputs, which must agree: each item as probability, id and (for an option) its count. */
function runBoth(name: string, parameters: Record<string, string> = {}): (string | number)[][] {
  const [fast, slow] = [withOrdinals, withoutOrdinals].map((input) =>
    endpoint(name)
      .run(input, parameters, context)
      .items.map((item) => {
        const cell = item.tuple[0] as { id: string; attributes: Record<string, unknown> }
        return cell.attributes.count === undefined ? [item.p, cell.id] : [item.p, cell.id, cell.attributes.count as number]
      }),
  )
  expect(fast).toEqual(slow)
  return fast!
}

describe('the facet options endpoints', () => {
  it('count each value over the input, its share as the probability, the largest first and then by id', () => {
    expect(runBoth('continent')).toEqual([
      [0.666667, 'Unknown', 4],
      [0.333333, 'Americas', 2],
    ])
    expect(runBoth('country')).toEqual([
      [0.333333, 'BR', 2],
      [0.333333, 'CH', 2],
      [0.333333, 'JP', 2],
    ])
  })

  it('give each option as the value it counts, with the count among its attributes', () => {
    const [option] = endpoint('country').run(withOrdinals, {}, context).items
    expect(option!.tuple[0]).toMatchObject({ id: 'BR', class: ['country'], attributes: { name: 'Brazil', officialName: 'Federative Republic of Brazil', count: 2 } })
    expect(endpoint('country').run(withOrdinals, {}, context).rowClass).toBe('country')
  })

  it('find an option by id, and none for an id the data lacks', () => {
    expect(endpoint('country').option!('JP', dataset)?.id).toBe('JP')
    expect(endpoint('continent').option!('Americas', dataset)?.id).toBe('Americas')
    expect(endpoint('country').option!('FR', dataset)).toBeNull()
  })
})

describe('the facet filter endpoints', () => {
  it('keep the input whose value is one of the selected options, in the input order', () => {
    expect(runBoth('country:FILTER', { value: '1("JP")|1("BR")' })).toEqual([
      [1, '1000'],
      [1, '1853909'],
      [1, '3448439'],
      [1, '99'],
    ])
    expect(runBoth('continent:FILTER', { value: '1("Unknown")' })).toEqual([
      [1, '1'],
      [1, '1853909'],
      [1, '2657896'],
      [1, '99'],
    ])
  })

  it('take one bare option id, as the client libraries send a single selection, and keep nothing for an id the data lacks', () => {
    expect(runBoth('country:FILTER', { value: 'CH' })).toEqual([
      [1, '1'],
      [1, '2657896'],
    ])
    expect(runBoth('country:FILTER', { value: '1("FR")' })).toEqual([])
  })
})

describe('selectedIds', () => {
  it('reads the first value of each tuple, or one bare id', () => {
    expect([...selectedIds('country:FILTER', '1("FR")|1("DE")')]).toEqual(['FR', 'DE'])
    expect([...selectedIds('country:FILTER', 'ES')]).toEqual(['ES'])
    expect([...selectedIds('country:FILTER', '1()')]).toEqual([])
  })

  it('refuses what is neither with a 400 that names the parameter, the rule and where it went wrong', () => {
    for (const [value, why] of [
      ['1("FR"', 'missing ")" at position 6'],
      ['', 'a tuple list must hold at least one tuple, such as 1("Europe") at position 0'],
    ]) {
      expect(serviceRefusal(() => selectedIds('country:FILTER', value!))).toEqual({
        status: 400,
        message: `The parameter "value" of endpoint "country:FILTER" is neither an option id nor tuple notation such as 1("FR")|1("DE"): ${why}`,
      })
    }
  })
})
