import { isEndpointStep, type QueryRequest } from '../query/model'

/**
 * The endpoint names an API has been used with (saved queries, runs in the
 * History), for the Endpoint box to offer where no description lists them:
 * a real deployment serves none, and its names are otherwise typed from
 * memory each time. The facet of an `options/<facet>` request counts too.
 * Sorted, each once.
 */
export function usedEndpointNames(requests: readonly Pick<QueryRequest, 'api' | 'steps' | 'facet'>[], api: string): string[] {
  const names = new Set<string>()
  for (const request of requests) {
    if (request.api !== api) continue
    for (const step of request.steps) if (isEndpointStep(step) && step.endpoint.trim() !== '') names.add(step.endpoint)
    if (request.facet) names.add(request.facet)
  }
  return [...names].sort((a, b) => a.localeCompare(b))
}
