import type { AttributeValue } from '../../dataset/model'
import { badRequest } from '../../refusal'
import { oneOfParameter, type EndpointDefinition } from '../endpoint'
import { objectOf, objectSet, probability, sortItems, type Item } from '../result-set'

/**
 * A modifier that orders its input by an attribute. Results are always listed
 * by probability, so the new order becomes the probability: the first of n
 * gets 1, each later position 1/n less; equal values share a probability.
 */

const SORTABLE: Record<string, readonly string[]> = {
  city: ['name', 'population', 'latitude', 'longitude'],
  country: ['name', 'area', 'cities', 'count'],
  continent: ['name', 'countries', 'cities', 'count'],
}

function compareValues(a: AttributeValue, b: AttributeValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1
  return String(a).localeCompare(String(b), 'en')
}

export const sort: EndpointDefinition = {
  name: 'sort',
  kind: 'modifier',
  stackable: true,
  description: 'Orders the results by an attribute; the probability then follows that order.',
  parameters: [
    { name: 'by', type: 'STRING', required: true, description: 'Attribute to order by: name, population, latitude or longitude (for cities)' },
    { name: 'order', type: 'STRING', required: false, description: 'asc or desc; default desc for numbers, asc for names' },
  ],
  output: ['OBJ'],
  accepts: Object.keys(SORTABLE),
  run(input, parameters, { budget }) {
    const allowed = SORTABLE[input.rowClass] ?? []
    const by = parameters.by ?? ''
    if (!allowed.includes(by)) {
      throw badRequest(`The parameter "by" of endpoint "sort" must name an attribute of ${input.rowClass} (${allowed.join(', ')}), not "${by}"`)
    }
    const order = oneOfParameter('sort', 'order', parameters.order, ['asc', 'desc'] as const) ?? (by === 'name' ? 'asc' : 'desc')
    const sign = order === 'asc' ? 1 : -1
    const valueOf = (item: Item) => objectOf(item).attributes[by] ?? null
    const ordered = [...input.items].sort(budget.comparator((a, b) => sign * compareValues(valueOf(a), valueOf(b))))
    const n = ordered.length
    const items: Item[] = []
    let groupStart = 0
    ordered.forEach((item, i) => {
      const previous = ordered[i - 1]
      if (previous && compareValues(valueOf(previous), valueOf(item)) !== 0) groupStart = i
      items.push({ p: probability(1 - groupStart / n), tuple: item.tuple })
    })
    return objectSet(input.rowClass, sortItems(items, budget))
  },
}
