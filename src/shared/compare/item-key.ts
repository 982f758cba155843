import type { ResultItem } from '../responses'

/**
 * How two answers' items are matched: by the first tuple column's id, or by
 * the whole tuple where that column has no id (a row of plain values, such
 * as a triple). Rank diffs, overlap figures and snapshots all key by this.
 */

type Tuple = ResultItem['tuple']

function columns(tuple: Tuple): unknown[] {
  if (Array.isArray(tuple)) return tuple
  // homogeneousArrays: an object keyed by 1-based column number.
  return Object.keys(tuple)
    .sort((a, b) => Number(a) - Number(b))
    .map((key) => tuple[key])
}

function idOf(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null
  const id = (value as { id?: unknown }).id
  return typeof id === 'string' && id !== '' ? id : null
}

export function itemKey(item: Pick<ResultItem, 'tuple'>): string {
  const all = columns(item.tuple)
  return idOf(all[0]) ?? JSON.stringify(all)
}

const LABEL_ATTRIBUTES = ['name', 'title', 'label']

/** What a person recognises an item by: the first column's name, title or label, else its key. */
export function itemLabel(item: Pick<ResultItem, 'tuple'>): string {
  const first = columns(item.tuple)[0]
  if (first !== null && typeof first === 'object') {
    const attributes = (first as { attributes?: Record<string, unknown> }).attributes ?? (first as Record<string, unknown>)
    for (const name of LABEL_ATTRIBUTES) {
      const value = attributes[name]
      if (typeof value === 'string' && value !== '') return value
    }
    return itemKey(item)
  }
  return columns(item.tuple)
    .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
    .join(' · ')
}
