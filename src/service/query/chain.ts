import { badRequest } from '../refusal'
import { stepKey, type ChainCache } from './chain-cache'
import type { PlannedStep } from './chain-plan'
import type { EndpointDefinition, RunContext } from './endpoint'
import { objectSet, type ResultSet } from './result-set'

/**
 * Runs a planned chain (chain-plan.ts): each stacked endpoint takes the
 * result of the one before, the first one every city.
 */

export interface ChainResult {
  result: ResultSet
  last: EndpointDefinition
}

/**
 * Runs the steps after the longest prefix the cache holds, caching each new
 * prefix result. A step that throws caches nothing, so errors are met again in
 * the same order; a cached prefix passed every check when it was first run.
 */
export function runChain(plan: PlannedStep[], context: RunContext, cache: ChainCache): ChainResult {
  // The ranking is the only configuration that changes results (through search).
  const keys: string[] = []
  let key = context.config.ranking
  for (const { endpoint, parameters } of plan) keys.push((key += stepKey(endpoint.name, parameters)))

  let start = plan.length
  let result: ResultSet | undefined
  while (start > 0 && (result = cache.get(keys[start - 1]!)) === undefined) start--
  let previous: EndpointDefinition | null = start > 0 ? plan[start - 1]!.endpoint : null
  for (let i = start; i < plan.length; i++) {
    context.budget.check()
    const { endpoint, parameters } = plan[i]!
    const input: ResultSet = result ?? allCities(context)
    if (previous && !endpoint.accepts.includes(input.rowClass)) {
      throw badRequest(
        `The endpoint "${endpoint.name}" cannot be stacked on "${previous.name}": it takes ${endpoint.accepts.join(' or ')} results, and "${previous.name}" gives ${input.rowClass} results`,
      )
    }
    result = endpoint.run(input, parameters, context)
    cache.set(keys[i]!, result)
    previous = endpoint
  }
  // planChain guarantees at least one endpoint.
  return { result: result!, last: previous! }
}

const baseSets = new WeakMap<object, ResultSet>()

/** A stackable endpoint that stands first works on every city, all equally likely. */
function allCities(context: RunContext): ResultSet {
  let base = baseSets.get(context.dataset)
  if (!base) {
    // Built once: stages never mutate their input, so the set can be shared.
    const { citiesById, columns } = context.dataset
    base = objectSet('city', citiesById.map((city) => ({ p: 1, tuple: [city] })), columns.byId)
    baseSets.set(context.dataset, base)
  }
  return base
}
