import { Lru } from './lru'
import type { ResultSet } from './result-set'

/**
 * Results of chain prefixes. The service is deterministic and its data never
 * changes while it runs, so the result of "search san, then continent
 * Americas" under one ranking is the same for every request: the explorer asks
 * it again for each page, count, statistics and further filter, and only the
 * steps after the longest cached prefix need to run.
 */

export type ChainCache = Lru<string, ResultSet>

/** Enough for every page and facet of the chains a few users explore at once. */
const ENTRIES = 512
/** Results held across all entries, counted per set (sets share item objects, so this overstates memory). */
const MAX_ITEMS = 2_000_000

export function createChainCache(entries = ENTRIES, maxItems = MAX_ITEMS): ChainCache {
  // The +1 makes empty results count, so the entry bound is not the only limit on them.
  return new Lru<string, ResultSet>(entries, maxItems, (set) => set.items.length + 1)
}

const STEP = '\u0000'
const FIELD = '\u0001'

/**
 * The canonical key of one planned step: endpoint name, then each parameter
 * in the endpoint's declared order. Values never hold control characters
 * (planChain refuses them), so the separators cannot be forged by a value.
 */
export function stepKey(endpoint: string, parameters: Record<string, string>): string {
  let key = STEP + endpoint
  for (const name in parameters) key += FIELD + name + FIELD + parameters[name]
  return key
}
