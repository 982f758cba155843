import type { ResultsResponse } from '../responses'
import { isTupleObject, tupleValues } from './table'

/**
 * A facet options endpoint answers with one item per option: an OBJ whose id
 * is the value to filter by, and whose attributes (on our service) carry a
 * display name and how many results have that option. Other services may
 * give only ids and probabilities, so both are optional here.
 */

export interface FacetOption {
  id: string
  label: string
  /** How many results have this option, when the service says. */
  count: number | null
  probability: number
}

export function facetOptions(response: ResultsResponse): FacetOption[] {
  const options: FacetOption[] = []
  for (const item of response.items) {
    const value = tupleValues(item)[0] ?? null
    if (isTupleObject(value)) {
      const name = value.attributes?.['name']
      const count = value.attributes?.['count']
      options.push({
        id: value.id,
        label: typeof name === 'string' && name !== '' ? name : value.id,
        count: typeof count === 'number' ? count : null,
        probability: item.probability,
      })
    } else if (typeof value === 'string' || typeof value === 'number') {
      options.push({ id: String(value), label: String(value), count: null, probability: item.probability })
    }
  }
  return options
}
