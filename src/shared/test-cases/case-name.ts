import { isEndpointStep, type QueryRequest } from '../query/model'

/** Names a new test case gets when the user gives none: after what the query searches for. */

const MAX_NAME = 200
/** Parameters that usually hold the text searched for, in the order they are preferred. */
const TEXT_PARAMETERS = ['query', 'q', 'text', 'search', 'term']

/**
 * What the request searches for: the first text parameter of its steps
 * ("san"), else the first parameter with a value, else the last endpoint's
 * name; null for a chain with none of these.
 */
export function searchTextOf(request: QueryRequest): string | null {
  const steps = request.steps.filter(isEndpointStep)
  for (const name of TEXT_PARAMETERS) {
    for (const step of steps) {
      const value = step.parameters[name]?.trim()
      if (value) return value
    }
  }
  for (const step of steps) {
    const value = Object.values(step.parameters).find((each) => each.trim() !== '')
    if (value) return value.trim()
  }
  return steps.at(-1)?.endpoint.trim() || null
}

/** `base`, else "base (2)", "base (3)"… the first that is free, within the 200 characters a name may have. */
export function uniqueCaseName(base: string, isTaken: (name: string) => boolean): string {
  const clean = base.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim() || 'New test'
  const stem = clean.slice(0, MAX_NAME)
  if (!isTaken(stem)) return stem
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`
    const candidate = `${clean.slice(0, MAX_NAME - suffix.length).trimEnd()}${suffix}`
    if (!isTaken(candidate)) return candidate
  }
}

/** What a case made from this request is called when the user gives no name: its search text, else the saved query's name. */
export function caseNameHint(request: QueryRequest, savedQuery?: string): string {
  return searchTextOf(request) ?? savedQuery ?? 'New test'
}
