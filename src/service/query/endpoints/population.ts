import { badRequest } from '../../refusal'
import { integerParameter, type EndpointDefinition } from '../endpoint'
import { keepCities, keepItems, objectOf } from '../result-set'

/** A stackable numeric filter: keeps cities whose population lies within [min, max]. */
export const population: EndpointDefinition = {
  name: 'population',
  kind: 'filter',
  stackable: true,
  description: 'Keeps the cities whose population is at least min and at most max (either may be left out).',
  parameters: [
    { name: 'min', type: 'INTEGER', required: false, description: 'Smallest population kept, such as 100000' },
    { name: 'max', type: 'INTEGER', required: false, description: 'Largest population kept' },
  ],
  output: ['OBJ'],
  accepts: ['city'],
  run(input, parameters, { dataset }) {
    const min = integerParameter('population', 'min', parameters.min) ?? -Infinity
    const max = integerParameter('population', 'max', parameters.max) ?? Infinity
    if (min > max) throw badRequest(`The parameters of endpoint "population" are contradictory: min ${min} is above max ${max}`)
    if (input.cities) {
      const populations = dataset.columns.population
      return keepCities(input, input.cities, (city) => populations[city]! >= min && populations[city]! <= max)
    }
    const items = input.items.filter((item) => {
      const value = Number(objectOf(item).attributes.population)
      return value >= min && value <= max
    })
    return keepItems(input, items)
  },
}
