import type { DataType } from '../../shared/api-description'
import { compareIds, type DataObject } from '../dataset/model'
import { UNLIMITED, type WorkBudget } from './work-budget'

/**
 * What flows between stacked endpoints: scored tuples, always kept sorted by
 * probability (highest first) and then by key, so that paging and repeated
 * requests are deterministic.
 */

export type Cell = DataObject | string

export interface Item {
  p: number
  tuple: Cell[]
}

export interface ResultSet {
  output: DataType[]
  /** Class of the objects in a one-OBJ-column set (`city`, `country`…), or `triple`. */
  rowClass: string
  items: Item[]
  /**
   * For a set of single cities, when known: the city ordinal of each item, in
   * item order, so that filters and counts read the dataset's columns.
   */
  cities?: Int32Array
}

/** Six decimals keep a distinct probability for each of ~135,000 positions. */
export function probability(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

export function itemKey(item: Item): string {
  const first = item.tuple[0]
  if (item.tuple.length === 1 && typeof first === 'object') return first.id
  return item.tuple.map((cell) => (typeof cell === 'string' ? cell : cell.id)).join('\u0000')
}

/** The budget matters for large inputs (a sort or triples over every city); facet options are a few hundred at most. */
export function sortItems(items: Item[], budget: WorkBudget = UNLIMITED): Item[] {
  const keyed = items.map((item) => ({ item, key: itemKey(item) }))
  keyed.sort(budget.comparator((a, b) => b.item.p - a.item.p || compareIds(a.key, b.key)))
  return keyed.map((entry) => entry.item)
}

export function objectSet(rowClass: string, items: Item[], cities?: Int32Array): ResultSet {
  return cities ? { output: ['OBJ'], rowClass, items, cities } : { output: ['OBJ'], rowClass, items }
}

/** The items a filter keeps, in their ranking order; a set with city ordinals keeps those too. */
export function keepItems(input: ResultSet, items: Item[], cities?: Int32Array): ResultSet {
  return objectSet(input.rowClass, items, cities)
}

/** Keeps the cities of a set that has ordinals, testing only the ordinal. */
export function keepCities(input: ResultSet, cities: Int32Array, keep: (city: number) => boolean): ResultSet {
  const items: Item[] = []
  const kept = new Int32Array(cities.length)
  let count = 0
  for (let i = 0; i < cities.length; i++) {
    const city = cities[i]!
    if (!keep(city)) continue
    items.push(input.items[i]!)
    kept[count++] = city
  }
  return keepItems(input, items, kept.slice(0, count))
}

/** The object of a one-OBJ-column item; stacking checks guarantee the shape. */
export function objectOf(item: Item): DataObject {
  return item.tuple[0] as DataObject
}
