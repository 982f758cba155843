import { Ref, type DataObject } from '../dataset/model'
import type { Cell, Item, ResultSet } from './result-set'

/**
 * Turns result sets into the JSON shapes of the seed: level-limited object
 * descriptions, pages with absolute ranks, statistics.
 */

export type JsonObject = { [key: string]: unknown }

/**
 * Level 0: id and class. Level 1: attributes too, a reference as the id of its
 * target. Each further level expands references one step deeper.
 */
export function renderObject(object: DataObject, level: number): JsonObject {
  if (level <= 0) return { id: object.id, class: object.class }
  const attributes: JsonObject = {}
  for (const [name, value] of Object.entries(object.attributes)) {
    attributes[name] = value instanceof Ref ? (level >= 2 ? renderObject(value.target, level - 1) : value.target.id) : value
  }
  return { id: object.id, class: object.class, attributes }
}

export function renderTuple(item: Item, level: number, homogeneous: boolean): unknown {
  const cells = item.tuple.map((cell) => (typeof cell === 'string' ? cell : renderObject(cell, level)))
  if (!homogeneous) return cells
  const keyed: JsonObject = {}
  cells.forEach((cell, index) => (keyed[String(index + 1)] = cell))
  return keyed
}

export interface Page {
  offset: number
  count: number
  items: Item[]
}

export function pageOf(items: Item[], offset: number, count: number): Page {
  return { offset, count, items: items.slice(offset, offset + count) }
}

/** A page of ranked items, each tuple written by `tuple`: the shape `results` and `resultpage` share. */
function pageBody(result: ResultSet, page: Page, tuple: (item: Item) => unknown): JsonObject {
  return {
    offset: page.offset,
    count: page.count,
    type: result.output,
    items: page.items.map((item, index) => ({ rank: page.offset + index + 1, probability: item.p, tuple: tuple(item) })),
  }
}

export function resultsBody(result: ResultSet, page: Page, level: number, homogeneous: boolean): JsonObject {
  return pageBody(result, page, (item) => renderTuple(item, level, homogeneous))
}

const CUTOFFS = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0]

export function statisticsBody(items: Item[]): JsonObject {
  // Items are sorted by probability, so one pass counts every cutoff.
  const stats = CUTOFFS.map((cutoff) => {
    let numResults = 0
    for (const item of items) {
      if (item.p >= cutoff) numResults++
      else break
    }
    return { cutoff: cutoff.toFixed(1), numResults }
  })
  return { total: items.length, stats }
}

export function applyCutoff(items: Item[], cutoff: number): Item[] {
  if (cutoff <= 0) return items
  const end = items.findIndex((item) => item.p < cutoff)
  return end < 0 ? items : items.slice(0, end)
}

/**
 * The entity view of `resultpage` and `resultitem` (the official client's
 * `ResultObject`: names to strings, numbers or nested objects): an object's
 * id, its class, then its attributes flat beside them; a reference is the
 * referenced object's id, class and name; an attribute without a value is
 * left out. A simple value (a STRING column) is `{"value": …}`.
 */
export function entityView(cell: Cell): JsonObject {
  if (typeof cell === 'string') return { value: cell }
  const view: JsonObject = { id: cell.id, class: cell.class.join(' ') }
  for (const [name, value] of Object.entries(cell.attributes)) {
    if (value === null || name === 'id' || name === 'class') continue
    view[name] = value instanceof Ref ? referenceView(value.target) : value
  }
  return view
}

function referenceView(object: DataObject): JsonObject {
  const name = object.attributes.name
  return typeof name === 'string' ? { id: object.id, class: object.class.join(' '), name } : { id: object.id, class: object.class.join(' ') }
}

/** `resultpage`: a results page whose tuples hold entity views. */
export function resultPageBody(result: ResultSet, page: Page): JsonObject {
  return pageBody(result, page, (item) => item.tuple.map(entityView))
}

export interface FacetOption {
  id: string
  /** How many results have this option. */
  score: number
  /** What a filter takes to select this option alone: its id (`…/e/<facet>:FILTER/p/value/<value>`). */
  value: string
  title: string
}

export function facetOption(object: DataObject, count: number): FacetOption {
  const name = object.attributes.name
  return { id: object.id, score: count, value: object.id, title: typeof name === 'string' ? name : object.id }
}
