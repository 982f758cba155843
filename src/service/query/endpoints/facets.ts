import { parseFilterValue } from '../../../shared/query/tuple'
import type { AttributeValue, CityColumns, DataObject } from '../../dataset/model'
import { badRequest } from '../../refusal'
import { parameterLabel, type EndpointDefinition } from '../endpoint'
import { keepCities, keepItems, objectOf, objectSet, probability, sortItems, type Item, type ResultSet } from '../result-set'

/**
 * Facets: an options endpoint counts the values of one property over its
 * input; its `:FILTER` partner keeps the input whose value is one of the
 * selected tuples (disjunctive within the facet).
 */

interface Facet {
  name: string
  label: string
  valueClass: string
  accepts: readonly string[]
  valueOf(object: DataObject): DataObject | null
  /** The same as valueOf for a city, by ordinal: an index into `values(columns)`. */
  valueOrdinal(city: number, columns: CityColumns): number
  values(columns: CityColumns): DataObject[]
  /** Flags by country ordinal: 1 for the countries whose value is selected. */
  countryMask(selected: Set<string>, columns: CityColumns): Uint8Array
}

// Named property reads (not attributes[name]) keep these lookups monomorphic: they run per result.
// An attribute that is an object is always a Ref (see AttributeValue).
function target(value: AttributeValue | undefined): DataObject | null {
  return typeof value === 'object' && value !== null ? value.target : null
}

const continentFacet: Facet = {
  name: 'continent',
  label: 'continent',
  valueClass: 'continent',
  accepts: ['city', 'country'],
  valueOf(object) {
    const country = object.class[0] === 'country' ? object : target(object.attributes.country)
    return country ? target(country.attributes.continent) : null
  },
  valueOrdinal: (city, columns) => columns.continentOfCountry[columns.country[city]!]!,
  values: (columns) => columns.continents,
  countryMask(selected, columns) {
    const mask = new Uint8Array(columns.countries.length)
    for (let country = 0; country < mask.length; country++) {
      if (selected.has(columns.continents[columns.continentOfCountry[country]!]!.id)) mask[country] = 1
    }
    return mask
  },
}

const countryFacet: Facet = {
  name: 'country',
  label: 'country',
  valueClass: 'country',
  accepts: ['city'],
  valueOf: (object) => target(object.attributes.country),
  valueOrdinal: (city, columns) => columns.country[city]!,
  values: (columns) => columns.countries,
  countryMask(selected, columns) {
    const mask = new Uint8Array(columns.countries.length)
    for (const id of selected) {
      const country = columns.countryOrdinal.get(id)
      if (country !== undefined) mask[country] = 1
    }
    return mask
  },
}

/** How many input results have each value: by ordinal from the columns when the input has them. */
function countValues(facet: Facet, input: ResultSet, columns: CityColumns): Map<DataObject, number> {
  const counts = new Map<DataObject, number>()
  if (input.cities) {
    const values = facet.values(columns)
    const byOrdinal = new Int32Array(values.length)
    for (const city of input.cities) byOrdinal[facet.valueOrdinal(city, columns)]! += 1
    byOrdinal.forEach((count, ordinal) => {
      if (count > 0) counts.set(values[ordinal]!, count)
    })
    return counts
  }
  for (const item of input.items) {
    const value = facet.valueOf(objectOf(item))
    if (value) counts.set(value, (counts.get(value) ?? 0) + 1)
  }
  return counts
}

function optionsEndpoint(facet: Facet): EndpointDefinition {
  let byId: Map<string, DataObject> | null = null
  return {
    name: facet.name,
    title: facet.label.charAt(0).toUpperCase() + facet.label.slice(1),
    kind: 'facet-options',
    stackable: true,
    description: `The ${facet.label} values of the results before it, with how many results have each (probability: their share).`,
    parameters: [],
    output: ['OBJ'],
    accepts: facet.accepts,
    run(input, _parameters, { dataset }) {
      const counts = countValues(facet, input, dataset.columns)
      const total = input.items.length
      const items: Item[] = []
      for (const [value, count] of counts) {
        const option: DataObject = { id: value.id, class: value.class, attributes: { ...value.attributes, count } }
        items.push({ p: probability(count / total), tuple: [option] })
      }
      // Sorting by probability then id makes the order independent of how the counts were gathered.
      return objectSet(facet.valueClass, sortItems(items))
    },
    option(id, dataset) {
      byId ??= new Map(facet.values(dataset.columns).map((value) => [value.id, value]))
      return byId.get(id) ?? null
    },
  }
}

/** The selected ids of a filter value: tuple notation, or one bare option id (`ES`) as the client libraries send a single selection. */
export function selectedIds(endpoint: string, value: string): Set<string> {
  const parsed = parseFilterValue(value)
  if (!parsed.ok) {
    throw badRequest(`The ${parameterLabel(endpoint, 'value')} is neither an option id nor tuple notation such as 1("FR")|1("DE"): ${parsed.error.message}`)
  }
  return new Set(parsed.value.flatMap((tuple) => (tuple.values[0] === undefined ? [] : [String(tuple.values[0])])))
}

function filterEndpoint(facet: Facet): EndpointDefinition {
  const name = `${facet.name}:FILTER`
  return {
    name,
    kind: 'facet-filter',
    stackable: true,
    description: `Keeps the results whose ${facet.label} is one of the selected options (ids from the "${facet.name}" endpoint).`,
    parameters: [
      { name: 'value', type: 'TUPLE_LIST', required: true, description: `Selected ${facet.label} ids in tuple notation, such as 1("${facet.name === 'country' ? 'FR' : 'Europe'}")` },
    ],
    output: ['OBJ'],
    accepts: facet.accepts,
    run(input, parameters, { dataset }) {
      const selected = selectedIds(name, parameters.value ?? '')
      // Filtering keeps the input's order, which is already the ranking order.
      if (input.cities) {
        const mask = facet.countryMask(selected, dataset.columns)
        const country = dataset.columns.country
        return keepCities(input, input.cities, (city) => mask[country[city]!] === 1)
      }
      const items = input.items.filter((item) => {
        const value = facet.valueOf(objectOf(item))
        return value !== null && selected.has(value.id)
      })
      return keepItems(input, items)
    },
  }
}

export const facetEndpoints: EndpointDefinition[] = [continentFacet, countryFacet].flatMap((facet) => [
  optionsEndpoint(facet),
  filterEndpoint(facet),
])
