import { requiredText, type EndpointDefinition } from '../endpoint'
import { objectSet } from '../result-set'

/** Item lookup and list: entry points that read objects directly, not a ranking. */

export const city: EndpointDefinition = {
  name: 'city',
  kind: 'item',
  stackable: false,
  description: 'The city with the given id (no result when there is none).',
  parameters: [{ name: 'id', type: 'STRING', required: true, description: 'City id, such as 2988507 (Paris)' }],
  output: ['OBJ'],
  accepts: [],
  run(_input, parameters, { dataset }) {
    const id = requiredText('city', 'id', parameters.id).trim()
    const found = dataset.cityIndex.get(id)
    return objectSet('city', found ? [{ p: 1, tuple: [found] }] : [])
  },
}

export const countries: EndpointDefinition = {
  name: 'countries',
  kind: 'list',
  stackable: false,
  description: 'Every country, by id.',
  parameters: [],
  output: ['OBJ'],
  accepts: [],
  run(_input, _parameters, { dataset }) {
    return objectSet('country', dataset.countries.map((country) => ({ p: 1, tuple: [country] })))
  },
}
