import type { CityColumns } from './columns'

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
