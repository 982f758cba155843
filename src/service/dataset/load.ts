import { Interner } from './interner'
import { Ref, compareIds, type DataObject, type Dataset } from './model'
import { readSourcePackages, type SourceCountry, type SourceData } from './source'

/**
 * Builds the demo dataset from its source data (source.ts): every country,
 * grouped into continents by their region, and every city, each city
 * referring to its country and each country to its continent.
 */

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

/** The dataset straight from the npm packages (no snapshot): what scripts and tests that want no cache use. */
export function loadDataset(): Dataset {
  return buildDataset(readSourcePackages())
}

export function buildDataset(source: SourceData): Dataset {
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
  const addCountry = (code: string, raw: SourceCountry | null): DataObject => {
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
  for (const raw of source.countries) addCountry(raw.cca2, raw)

  const raw = source.cities
  // A few cities name a country code world-countries lacks; they still get a country.
  const countryOfCode = raw.countryCodes.map((code) => countryIndex.get(code) ?? addCountry(code, null))
  if (countryOrdinals.objects.length > 0xffff || continentOrdinals.objects.length > 0xff) {
    throw new RangeError('More countries or continents than the city columns can index')
  }
  const ordinalOfCode = countryOfCode.map((country) => countryOrdinals.ordinals.get(country.id)!)
  // Nothing changes an object's class or a reference once built, so the cities of a
  // country share one of each: 135,000 fewer of both to allocate at every start.
  const refOfCode = countryOfCode.map((country) => new Ref(country))
  const cityClass = Object.freeze(['city']) as string[]
  const kindOfCode = raw.featureCodes.map(cityKind)
  const citiesOfCode = new Int32Array(countryOfCode.length)
  const cities: DataObject[] = new Array(raw.count)
  const cityIndex = new Map<string, DataObject>()
  const cityCountry = new Uint16Array(raw.count)
  let maxPopulation = 1
  for (let i = 0; i < raw.count; i++) {
    const code = raw.country[i]!
    cityCountry[i] = ordinalOfCode[code]!
    citiesOfCode[code] = citiesOfCode[code]! + 1
    const population = raw.population[i]!
    const city: DataObject = {
      id: String(raw.cityId[i]),
      class: cityClass,
      attributes: {
        name: raw.name[i]!,
        country: refOfCode[code]!,
        population,
        kind: kindOfCode[raw.featureCode[i]!]!,
        latitude: round(raw.latitude[i]!, 5),
        longitude: round(raw.longitude[i]!, 5),
      },
    }
    cities[i] = city
    cityIndex.set(city.id, city)
    if (population > maxPopulation) maxPopulation = population
  }
  for (let code = 0; code < countryOfCode.length; code++) {
    const country = countryOfCode[code]!
    ;(country.attributes.cities as number) += citiesOfCode[code]!
    ;((country.attributes.continent as Ref).target.attributes.cities as number) += citiesOfCode[code]!
  }

  const byId = (a: DataObject, b: DataObject) => compareIds(a.id, b.id)
  return {
    cities,
    citiesById: Array.from(raw.byId, (ordinal) => cities[ordinal]!),
    columns: {
      country: cityCountry,
      population: raw.population,
      continentOfCountry: Uint8Array.from(continentOfCountry),
      countries: countryOrdinals.objects,
      continents: continentOrdinals.objects,
      countryOrdinal: countryOrdinals.ordinals,
      continentOrdinal: continentOrdinals.ordinals,
      byId: raw.byId,
    },
    cityIndex,
    countries: [...countryIndex.values()].sort(byId),
    countryIndex,
    continents: [...continentIndex.values()].sort(byId),
    maxPopulationLog: Math.log10(maxPopulation),
  }
}
