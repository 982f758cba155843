import { compareIds, type DataObject, type Dataset } from '../../dataset/model'
import { queryTerms, type TextIndex } from '../../dataset/text-index'
import { badRequest } from '../../refusal'
import { requiredText, type EndpointDefinition, type RankingConfig } from '../endpoint'
import { objectSet, probability, type Item, type ResultSet } from '../result-set'
import type { WorkBudget } from '../work-budget'

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

/**
 * Search results by relevance (probability desc, then id, as sortItems
 * orders), with their city ordinals. The chain cache keeps them per
 * configuration and query.
 */
function rank(query: string, text: TextIndex, config: RankingConfig, dataset: Dataset, budget: WorkBudget): ResultSet {
  const hits = text.search(query)
  budget.check()
  const best = hits.reduce((max, hit) => Math.max(max, hit.score), 0)
  if (best <= 0) return objectSet('city', [], new Int32Array(0))
  const raw = hits.map((hit) => ({ hit, r: relevance(hit.score, best, hit.object, config, dataset.maxPopulationLog), p: 0 }))
  const top = raw.reduce((max, hit) => Math.max(max, hit.r), 0)
  for (const entry of raw) entry.p = probability(entry.r / top)
  raw.sort(budget.comparator((a, b) => b.p - a.p || compareIds(a.hit.object.id, b.hit.object.id)))
  const items: Item[] = raw.map(({ hit, p }) => ({ p, tuple: [hit.object] }))
  return objectSet('city', items, Int32Array.from(raw, ({ hit }) => hit.ordinal))
}

/**
 * Each distinct word is one pass over every name it matches or prefixes, so
 * their number bounds the work; no place name has nearly this many words.
 */
export const MAX_SEARCH_WORDS = 32

export const search: EndpointDefinition = {
  name: 'search',
  kind: 'search',
  stackable: false,
  description: 'Cities whose name matches the query (words from three letters on also match as prefixes).',
  parameters: [{ name: 'query', type: 'STRING', required: true, description: 'Words to look for in city names, such as "new york"' }],
  output: ['OBJ'],
  accepts: [],
  run(_input, parameters, { text, config, dataset, budget }) {
    const query = requiredText('search', 'query', parameters.query)
    const words = queryTerms(query).size
    if (words > MAX_SEARCH_WORDS) {
      throw badRequest(
        `The parameter "query" of endpoint "search" has ${words} distinct words; at most ${MAX_SEARCH_WORDS} are allowed (a repeated word counts once)`,
      )
    }
    return rank(query, text, config, dataset, budget)
  },
}
