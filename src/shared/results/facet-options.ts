import type { ResultsResponse } from '../responses'
import { isTupleObject, tupleValues } from './table'
import { visibleControls } from '../text/visible-controls'

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

/** An option as the facet list shows it. */
export interface ShownFacetOption {
  /** The label, bidi controls as visible escapes: the option's text and its checkbox's name. */
  label: string
  /** The tooltip: the label, and the id after it when they differ, escaped the same way. */
  title: string
}

/**
 * How a facet option reads on screen. Labels and ids come from the server, so
 * an RLO could make one option pass for another; only the text shown is
 * escaped, while the id ticked, filtered by and sent back stays as sent.
 */
export function shownFacetOption(option: Pick<FacetOption, 'id' | 'label'>): ShownFacetOption {
  const label = visibleControls(option.label)
  return { label, title: option.id === option.label ? label : `${label} (${visibleControls(option.id)})` }
}
