import { isEndpointStep, type Step } from '../../shared/query/model'
import { badRequest } from '../service-error'
import type { ApiDefinition } from '../workspace/workspaces'
import { stepKey, type ChainCache } from './chain-cache'
import { parameterLabel, type EndpointDefinition, type RunContext } from './endpoint'
import { objectSet, type ResultSet } from './result-set'

/**
 * Runs a request's chain: context parameters flow to every later endpoint that
 * defines them (an explicit /p/ wins), and each stacked endpoint takes the
 * result of the one before. Everything that can be checked without data is
 * checked before anything runs.
 */

/** Deep enough for any real faceted query; a longer chain is an attack or a bug. */
export const MAX_ENDPOINTS = 100
export const MAX_VALUE_LENGTH = 4096
const CONTROL = /[\u0000-\u001f\u007f]/

interface PlannedStep {
  endpoint: EndpointDefinition
  parameters: Record<string, string>
}

function checkValue(label: string, value: string): void {
  if (value.length > MAX_VALUE_LENGTH) {
    throw badRequest(`The ${label} is ${value.length} characters long; at most ${MAX_VALUE_LENGTH} are allowed`)
  }
  if (CONTROL.test(value)) throw badRequest(`The ${label} holds a control character, which no value may contain`)
}

export function planChain(steps: Step[], api: ApiDefinition): PlannedStep[] {
  const endpointCount = steps.filter(isEndpointStep).length
  if (endpointCount === 0) throw badRequest('The request names no endpoint; add /e/<endpoint> to the path')
  if (endpointCount > MAX_ENDPOINTS) {
    throw badRequest(`The request stacks ${endpointCount} endpoints; at most ${MAX_ENDPOINTS} may be stacked`)
  }
  const context = new Map<string, string>()
  const planned: PlannedStep[] = []
  for (const step of steps) {
    if (!isEndpointStep(step)) {
      for (const [name, value] of Object.entries(step.context)) {
        checkValue(`context parameter "${name}"`, value)
        context.set(name, value)
      }
      continue
    }
    const endpoint = api.endpoints.get(step.endpoint)
    if (!endpoint) {
      const names = [...api.endpoints.keys()].join(', ')
      throw badRequest(`no endpoint named "${step.endpoint}" in api "${api.name}" (it has: ${names})`)
    }
    if (planned.length > 0 && !endpoint.stackable) {
      throw badRequest(`The endpoint "${endpoint.name}" is not stackable, so it must be the first endpoint of the request`)
    }
    const parameters: Record<string, string> = {}
    for (const [name, value] of Object.entries(step.parameters)) {
      if (!endpoint.parameters.some((spec) => spec.name === name)) {
        const known = endpoint.parameters.map((spec) => spec.name)
        throw badRequest(
          `The endpoint "${endpoint.name}" has no parameter "${name}"${known.length ? ` (it has: ${known.join(', ')})` : ' (it takes none)'}`,
        )
      }
    }
    for (const spec of endpoint.parameters) {
      const value = step.parameters[spec.name] ?? context.get(spec.name)
      if (value === undefined) {
        if (spec.required) throw badRequest(`The ${parameterLabel(endpoint.name, spec.name)} is required`)
        continue
      }
      checkValue(parameterLabel(endpoint.name, spec.name), value)
      parameters[spec.name] = value
    }
    planned.push({ endpoint, parameters })
  }
  return planned
}

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
