/**
 * The shape check of a results page (shared/responses ResultsResponseSchema),
 * written by hand: it runs on every answer, and a 100-item page must cost
 * microseconds, not the tenth of a millisecond a schema library spends.
 * Returns null when the page is well formed, else where it is not.
 */
export function resultsShapeProblem(value: unknown): string | null {
  if (!isObject(value)) return 'body: expected an object'
  if (!Number.isInteger(value.offset)) return 'offset: expected an integer'
  if (!Number.isInteger(value.count)) return 'count: expected an integer'
  if (!Array.isArray(value.type) || !value.type.every((name) => typeof name === 'string')) return 'type: expected a list of type names'
  const items = value.items
  if (!Array.isArray(items)) return 'items: expected a list'
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i]
    if (!isObject(item)) return `items.${i}: expected an object`
    if (!Number.isInteger(item.rank)) return `items.${i}.rank: expected an integer`
    if (typeof item.probability !== 'number') return `items.${i}.probability: expected a number`
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
  return null
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
