import { isEndpointStep, type Step } from '../query/model'

/** Longer search text makes a poor name; the user types one instead. */
const MAX_SUGGESTED = 60
/** Parameters whose value reads as what the query is about. */
const TEXT_PARAMETERS = ['query', 'q', 'text', 'search', 'term', 'terms', 'keywords']

/**
 * A first name for a query being saved: its search text ("san" → "San"),
 * made unique among the names taken ("San 2"). Empty when the chain has no
 * search text that reads as a name (none, too long, or tuple notation), so
 * the dialog starts empty rather than with something odd.
 */
export function suggestQueryName(steps: readonly Step[], taken: readonly string[]): string {
  const text = searchText(steps)
  if (!text) return ''
  const base = text.charAt(0).toUpperCase() + text.slice(1)
  const names = new Set(taken)
  if (!names.has(base)) return base
  for (let n = 2; ; n++) if (!names.has(`${base} ${n}`)) return `${base} ${n}`
}

function searchText(steps: readonly Step[]): string {
  for (const step of steps) {
    if (!isEndpointStep(step)) continue
    for (const name of TEXT_PARAMETERS) {
      const value = step.parameters[name]?.trim().replace(/\s+/g, ' ')
      if (!value) continue
      // Tuple notation (`1("ES")|…`) or a path-like value names nothing a user would recognise.
      if (value.length > MAX_SUGGESTED || /[()|"\\/]/.test(value)) return ''
      return value
    }
  }
  return ''
}
