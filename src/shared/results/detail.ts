import type { ResultItem } from '../responses'
import { formatValue, isTupleObject, tupleValues } from './table'
import { visibleControls } from '../text/visible-controls'

/**
 * A result item laid out for the row detail view: every field of every tuple
 * column, nested objects (level > 1) opened as indented entries, so nothing a
 * grid cell shortens is lost.
 */

export interface DetailEntry {
  /** Dotted path from the tuple column, e.g. `1.attributes.country.name`. */
  path: string
  /** The path as shown (in the copy button's name): bidi controls as visible escapes. */
  shownPath: string
  /** The field's name as shown, bidi controls as visible escapes. */
  label: string
  depth: number
  /** Text of a simple value, as sent (what Copy puts on the clipboard); null for an object heading its own entries. */
  text: string | null
  /** The same text as shown: bidi controls as visible escapes, so a spoofed name reads as what it is. */
  shown: string | null
}

type RawEntry = Omit<DetailEntry, 'shownPath' | 'shown'>

function walk(value: unknown, path: string, label: string, depth: number, out: RawEntry[]): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    out.push({ path, label, depth, text: null })
    const record = value as Record<string, unknown>
    if (isTupleObject(value as never)) {
      out.push({ path: `${path}.id`, label: 'id', depth: depth + 1, text: String(record['id']) })
      out.push({ path: `${path}.class`, label: 'class', depth: depth + 1, text: formatValue(record['class']) })
      const attributes = (record['attributes'] ?? {}) as Record<string, unknown>
      for (const [name, inner] of Object.entries(attributes)) walk(inner, `${path}.${name}`, name, depth + 1, out)
      return
    }
    for (const [name, inner] of Object.entries(record)) walk(inner, `${path}.${name}`, name, depth + 1, out)
    return
  }
  if (Array.isArray(value) && value.some((entry) => entry !== null && typeof entry === 'object')) {
    out.push({ path, label, depth, text: null })
    value.forEach((entry, index) => walk(entry, `${path}.${index}`, `[${index + 1}]`, depth + 1, out))
    return
  }
  out.push({ path, label, depth, text: formatValue(value) })
}

export function detailEntries(item: ResultItem): DetailEntry[] {
  const out: RawEntry[] = [
    { path: 'rank', label: 'rank', depth: 0, text: String(item.rank) },
    { path: 'probability', label: 'probability', depth: 0, text: String(item.probability) },
  ]
  const values = tupleValues(item)
  values.forEach((value, index) => {
    const label = values.length > 1 ? `column ${index + 1}` : 'tuple'
    walk(value, String(index + 1), label, 0, out)
  })
  // Names and values both come from the server: every one shown goes through visibleControls, here, once.
  return out.map((entry) => ({
    ...entry,
    label: visibleControls(entry.label),
    shownPath: visibleControls(entry.path),
    shown: entry.text === null ? null : visibleControls(entry.text),
  }))
}
