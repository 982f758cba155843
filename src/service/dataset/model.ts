/**
 * The objects the demo workspace serves. A reference points straight at its
 * target so that `level` can expand it without a lookup.
 */

export class Ref {
  constructor(readonly target: DataObject) {}
}

export type AttributeValue = string | number | boolean | null | Ref

export interface DataObject {
  id: string
  class: string[]
  attributes: Record<string, AttributeValue>
}

export interface Dataset {
  cities: DataObject[]
  /** Cities in id order (string compare), the input of a stackable endpoint that stands first. */
  citiesById: DataObject[]
  cityIndex: Map<string, DataObject>
  /** Per-city facts as typed arrays, for filters and facet counts. */
  columns: CityColumns
  countries: DataObject[]
  countryIndex: Map<string, DataObject>
  continents: DataObject[]
  /** log10 of the largest city population, for the population boost. */
  maxPopulationLog: number
}

export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The city facts that filters and facet counts read, as dense typed arrays
 * indexed by city ordinal (position in `Dataset.cities`), with countries and
 * continents interned to small ordinals. Resolved once at load, so a filter
 * over thousands of hits reads two array slots per hit instead of walking
 * object references and comparing id strings.
 */
export interface CityColumns {
  /** Country ordinal of each city. */
  country: Uint16Array
  /** Population of each city. */
  population: Float64Array
  /** Continent ordinal of each country, by country ordinal. */
  continentOfCountry: Uint8Array
  /** Country objects by country ordinal. */
  countries: DataObject[]
  /** Continent objects by continent ordinal. */
  continents: DataObject[]
  countryOrdinal: Map<string, number>
  continentOrdinal: Map<string, number>
  /** City ordinals in id order: the input of a stackable endpoint that stands first. */
  byId: Int32Array
}
