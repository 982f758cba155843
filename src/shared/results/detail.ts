import type { ResultItem } from '../responses'
import { formatValue, isTupleObject, tupleValues } from './table'

/**
 * A result item laid out for the row detail view: every field of every tuple
 * column, nested objects (level > 1) opened as indented entries, so nothing a
 * grid cell shortens is lost.
 */

export interface DetailEntry {
  /** Dotted path from the tuple column, e.g. `1.attributes.country.name`. */
  path: string
  label: string
  depth: number
  /** Text of a simple value; null for an object heading its own entries. */
  text: string | null
}

function walk(value: unknown, path: string, label: string, depth: number, out: DetailEntry[]): void {
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
  const out: DetailEntry[] = [
    { path: 'rank', label: 'rank', depth: 0, text: String(item.rank) },
    { path: 'probability', label: 'probability', depth: 0, text: String(item.probability) },
  ]
  const values = tupleValues(item)
  values.forEach((value, index) => {
    const label = values.length > 1 ? `column ${index + 1}` : 'tuple'
    walk(value, String(index + 1), label, 0, out)
  })
  return out
}
