import { Ref, type DataObject } from '../dataset/model'
import type { Item, ResultSet } from './result-set'

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

export function resultsBody(result: ResultSet, page: Page, level: number, homogeneous: boolean): JsonObject {
  return {
    offset: page.offset,
    count: page.count,
    type: result.output,
    items: page.items.map((item, index) => ({
      rank: page.offset + index + 1,
      probability: item.p,
      tuple: renderTuple(item, level, homogeneous),
    })),
  }
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
