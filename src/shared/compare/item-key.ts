import type { ResultItem } from '../responses'
import { visibleControls } from '../text/visible-controls'

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

/** An item as a rank table shows it: its label and its key, each with bidi controls as visible escapes. */
export interface ShownItem {
  label: string
  key: string
  /** The label is not the key itself, so the key is worth showing beside it. */
  distinct: boolean
}

/**
 * How the rank tables (compare, a test's rank diff) show an item. Keys and
 * labels stay as sent wherever they are matched, exported or copied; only
 * the text shown escapes the bidi controls that could make one read as another.
 */
export function shownItem(key: string, label: string | undefined): ShownItem {
  const text = label ?? key
  return { label: visibleControls(text), key: visibleControls(key), distinct: text !== key }
}
