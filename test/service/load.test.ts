import { describe, expect, it } from 'vitest'
import { buildDataset } from '../../src/service/dataset/load'
import { Ref, type DataObject } from '../../src/service/dataset/model'
import { tinySource } from '../fixtures/tiny-dataset'

/**
 * The dataset built from source columns, worked out by hand on the tiny
 * source: six cities, two in each of BR (a country world-countries knows, in
 * the Americas) and CH and JP (codes it lacks in the tiny source).
 */

const idOf = (value: unknown) => (value as Ref).target.id

describe('buildDataset', () => {
  const dataset = buildDataset(tinySource())

  it('makes every city an object with its country, kind and coordinates to five places', () => {
    expect(dataset.cities.map((city) => city.id)).toEqual(['3448439', '2657896', '1', '1000', '99', '1853909'])
    const [saoPaulo, , , sanSan, gotter] = dataset.cities as [DataObject, DataObject, DataObject, DataObject, DataObject]
    expect(saoPaulo.class).toEqual(['city'])
    expect({ ...saoPaulo.attributes, country: idOf(saoPaulo.attributes.country) }).toEqual({
      name: 'São Paulo',
      country: 'BR',
      population: 12_000_000,
      kind: 'administrative seat',
      latitude: -23.5475,
      longitude: -46.63611,
    })
    expect([sanSan.attributes.kind, sanSan.attributes.longitude, sanSan.attributes.latitude]).toEqual(['place', 1.12346, 2.5])
    expect(gotter.attributes.latitude).toBe(0)
    expect(dataset.cityIndex.get('1000')).toBe(sanSan)
  })

  it('gives a country the source lacks its code for a name, and the Unknown continent', () => {
    expect(dataset.countries.map((country) => country.id)).toEqual(['BR', 'CH', 'JP'])
    const brazil = dataset.countryIndex.get('BR')!
    expect({ ...brazil.attributes, continent: idOf(brazil.attributes.continent) }).toEqual({
      name: 'Brazil',
      officialName: 'Federative Republic of Brazil',
      capital: 'Brasília',
      continent: 'Americas',
      subregion: 'South America',
      area: 8515767,
      cities: 2,
    })
    const japan = dataset.countryIndex.get('JP')!
    expect({ ...japan.attributes, continent: idOf(japan.attributes.continent) }).toEqual({
      name: 'JP',
      officialName: 'JP',
      capital: null,
      continent: 'Unknown',
      subregion: null,
      area: null,
      cities: 2,
    })
  })

  it('counts the countries and cities of each continent', () => {
    expect(dataset.continents.map((continent) => [continent.id, continent.class, continent.attributes])).toEqual([
      ['Americas', ['continent'], { name: 'Americas', countries: 1, cities: 2 }],
      ['Unknown', ['continent'], { name: 'Unknown', countries: 2, cities: 4 }],
    ])
  })

  it('lays the facts filters read out as columns by ordinal', () => {
    const { columns } = dataset
    expect(Array.from(columns.country)).toEqual([0, 1, 1, 0, 2, 2])
    expect(Array.from(columns.continentOfCountry)).toEqual([0, 1, 1])
    expect(columns.countries.map((country) => country.id)).toEqual(['BR', 'CH', 'JP'])
    expect(columns.continents.map((continent) => continent.id)).toEqual(['Americas', 'Unknown'])
    expect([...columns.countryOrdinal]).toEqual([
      ['BR', 0],
      ['CH', 1],
      ['JP', 2],
    ])
    expect(Array.from(columns.population)).toEqual([12_000_000, 400_000, 1_001, 2_000, 5_000, 2_700_000])
  })

  it('orders the cities by id as strings, and takes the log of the largest population', () => {
    expect(dataset.citiesById.map((city) => city.id)).toEqual(['1', '1000', '1853909', '2657896', '3448439', '99'])
    expect(Array.from(dataset.columns.byId)).toEqual([2, 3, 5, 1, 0, 4])
    expect(dataset.maxPopulationLog).toBe(Math.log10(12_000_000))
  })

  it('names the kind of a city by its feature code', () => {
    const source = tinySource()
    source.cities.featureCodes = ['PPLC', 'PPLA2', 'PPLX', 'PPLL']
    source.cities.featureCode = Uint16Array.from([0, 1, 2, 3, 0, 1])
    expect(buildDataset(source).cities.map((city) => city.attributes.kind)).toEqual(['capital', 'administrative seat', 'district', 'place', 'capital', 'administrative seat'])
  })

  it('builds an empty dataset from no cities and no countries', () => {
    const source = tinySource()
    const empty = buildDataset({ countries: [], cities: { ...source.cities, count: 0, countryCodes: [], featureCodes: [], byId: new Int32Array(0) } })
    expect([empty.cities, empty.citiesById, empty.countries, empty.continents]).toEqual([[], [], [], []])
    expect(empty.maxPopulationLog).toBe(0)
  })
})
