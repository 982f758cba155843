import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/json-depth'

/**
 * The shape check of a results page (shared/responses ResultsResponseSchema),
 * written by hand: it runs on every answer, and a 100-item page must cost
 * microseconds, not the tenth of a millisecond a schema library spends.
 * Returns null when the page is well formed, else where it is not.
 *
 * It also bounds the page's nesting (MAX_JSON_DEPTH), so the reader need not
 * walk the answer a second time for that: each value it does not look into
 * (extra fields, a tuple's objects) is checked for depth from the level it
 * stands at. A page refused for depth says only that; the caller tells the
 * user (see query-runner).
 */
export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels`

export function resultsShapeProblem(value: unknown): string | null {
  if (!isObject(value)) return 'body: expected an object'
  if (!Number.isInteger(value.offset)) return 'offset: expected an integer'
  if (!Number.isInteger(value.count)) return 'count: expected an integer'
  if (!Array.isArray(value.type) || !value.type.every((name) => typeof name === 'string')) return 'type: expected a list of type names'
  // Level 1 is the page; its other fields stand at level 2.
  if (othersTooDeep(value, 'items', 'type', MAX_JSON_DEPTH - 1)) return TOO_DEEP
  const items = value.items
  if (!Array.isArray(items)) return 'items: expected a list'
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i]
    if (!isObject(item)) return `items.${i}: expected an object`
    if (!Number.isInteger(item.rank)) return `items.${i}.rank: expected an integer`
    if (typeof item.probability !== 'number') return `items.${i}.probability: expected a number`
    // An item is level 3: its fields level 4, a tuple's values level 5.
    if (othersTooDeep(item, 'tuple', undefined, MAX_JSON_DEPTH - 3)) return TOO_DEEP
    const tuple = item.tuple
    const values = Array.isArray(tuple) ? tuple : isObject(tuple) ? Object.values(tuple) : null
    if (!values) return `items.${i}.tuple: expected a list or an object`
    for (let j = 0; j < values.length; j++) {
      const problem = tupleValueProblem(values[j])
      if (problem) return `items.${i}.tuple.${j}${problem}`
    }
  }
  return null
}

function tupleValueProblem(value: unknown): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return null
  if (!isObject(value)) return ': expected an object or a simple value'
  if (typeof value.id !== 'string') return '.id: expected a string'
  if (!Array.isArray(value.class) || !value.class.every((name) => typeof name === 'string')) return '.class: expected a list of class names'
  if (value.attributes !== undefined && !isObject(value.attributes)) return '.attributes: expected an object'
  if (nestedDeeperThan(value, MAX_JSON_DEPTH - 4)) return `: ${TOO_DEEP}`
  return null
}

/** True when a field of `record` other than the named ones nests deeper than `room` levels. */
function othersTooDeep(record: Record<string, unknown>, skip: string, skipToo: string | undefined, room: number): boolean {
  for (const key in record) {
    if (key === skip || key === skipToo) continue
    const child = record[key]
    if (typeof child === 'object' && child !== null && nestedDeeperThan(child, room)) return true
  }
  return false
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
