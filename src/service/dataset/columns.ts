import type { DataObject } from './model'

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

/** Interns objects to ordinals in the order they are first seen. */
export class Interner {
  readonly objects: DataObject[] = []
  readonly ordinals = new Map<string, number>()

  ordinalOf(object: DataObject): number {
    let ordinal = this.ordinals.get(object.id)
    if (ordinal === undefined) {
      ordinal = this.objects.length
      this.objects.push(object)
      this.ordinals.set(object.id, ordinal)
    }
    return ordinal
  }
}
