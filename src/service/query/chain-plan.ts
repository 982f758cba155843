import { isEndpointStep, type Step } from '../../shared/query/model'
import { badRequest } from '../refusal'
import type { ApiDefinition } from '../workspace/workspaces'
import { parameterLabel, type EndpointDefinition } from './endpoint'

/**
 * Plans a request's chain: context parameters flow to every later endpoint
 * that defines them (an explicit /p/ wins). Everything that can be checked
 * without data is checked here, before anything runs (chain.ts runs a plan).
 */

/** Deep enough for any real faceted query; a longer chain is an attack or a bug. */
export const MAX_ENDPOINTS = 100
export const MAX_VALUE_LENGTH = 4096
const CONTROL = /[\u0000-\u001f\u007f]/

export interface PlannedStep {
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

