import type { DataObject, Dataset } from '../../dataset/model'
import type { TextIndex } from '../../dataset/text-index'
import { badRequest } from '../../service-error'
import type { EndpointDefinition, RankingConfig } from '../endpoint'
import { objectSet, probability, sortItems, type Item, type ResultSet } from '../result-set'

/**
 * Free-text search over city names. Probability is the text score relative to
 * the best hit; the `production` ranking multiplies it by a population factor,
 * so "paris" puts Paris, France above the many small Parises.
 */

function populationFactor(object: DataObject, maxPopulationLog: number): number {
  const population = Number(object.attributes.population) || 1
  return 0.25 + (0.75 * Math.log10(population)) / maxPopulationLog
}

function relevance(score: number, best: number, object: DataObject, config: RankingConfig, maxPopulationLog: number): number {
  const text = score / best
  return config.ranking === 'text-and-population' ? text * populationFactor(object, maxPopulationLog) : text
}

/** Search results by relevance, computed once per configuration and query. */
function rank(query: string, text: TextIndex, config: RankingConfig, dataset: Dataset): ResultSet {
  const hits = text.search(query)
  const best = hits.reduce((max, hit) => Math.max(max, hit.score), 0)
  if (best <= 0) return objectSet('city', [])
  const raw = hits.map((hit) => ({ object: hit.object, r: relevance(hit.score, best, hit.object, config, dataset.maxPopulationLog) }))
  const top = raw.reduce((max, hit) => Math.max(max, hit.r), 0)
  const items: Item[] = raw.map((hit) => ({ p: probability(hit.r / top), tuple: [hit.object] }))
  return objectSet('city', sortItems(items))
}

export const search: EndpointDefinition = {
  name: 'search',
  kind: 'search',
  stackable: false,
  description: 'Cities whose name matches the query (words from three letters on also match as prefixes).',
  parameters: [{ name: 'query', type: 'STRING', required: true, description: 'Words to look for in city names, such as "new york"' }],
  output: ['OBJ'],
  accepts: [],
  run(_input, parameters, { text, config, dataset, searchCache }) {
    const query = parameters.query ?? ''
    if (query.trim() === '') throw badRequest('The parameter "query" of endpoint "search" must not be empty')
    const key = `${config.ranking}\u0000${query}`
    const cached = searchCache.get(key)
    if (cached) return cached
    const result = rank(query, text, config, dataset)
    searchCache.set(key, result)
    return result
  },
}
