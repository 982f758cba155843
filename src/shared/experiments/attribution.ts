import type { QueryRequest } from '../query/model'

/**
 * Per-step attribution: what each step of a set's template adds. The set is
 * evaluated with the template cut after its first step, after its first two,
 * and so on; each cut's means, next to the cut before, say how much the step
 * just added moved each metric. docs/METRICS.md ("Experiments") is the
 * definition. Steps are added in the template's order, so a step's change
 * is measured with the steps before it in place (another order would
 * attribute differently when steps interact).
 */

export interface TemplatePrefix {
  /** Steps kept, from the first. */
  steps: number
  /** "1: search", "1–2: + country:FILTER", "1–3: + context". */
  label: string
  request: QueryRequest
}

/**
 * The template's prefixes, shortest first: every cut that keeps at least one
 * endpoint step (a cut of context steps alone asks nothing). The last is the
 * whole template. A prefix that no longer holds `{{query}}` asks the same
 * thing for every query; it is still listed (that is what the steps so far
 * give).
 */
export function templatePrefixes(request: QueryRequest): TemplatePrefix[] {
  const prefixes: TemplatePrefix[] = []
  let endpointSeen = false
  request.steps.forEach((step, index) => {
    const isEndpoint = 'endpoint' in step
    if (isEndpoint) endpointSeen = true
    if (!endpointSeen) return
    const steps = index + 1
    const name = isEndpoint ? step.endpoint : 'context'
    const range = steps === 1 ? '1' : `1–${steps}`
    prefixes.push({
      steps,
      label: `${range}: ${prefixes.length === 0 ? name : `+ ${name}`}`,
      request: { ...request, steps: request.steps.slice(0, steps) },
    })
  })
  return prefixes
}

export interface AttributionRow {
  label: string
  /** The prefix's mean of each metric. */
  means: Record<string, number | null>
  /** The change from the row before; null on the first row or when either mean is null. */
  change: Record<string, number | null>
}

/** Per prefix, its means of `metrics` and what changed since the prefix before. */
export function attributionRows(prefixMeans: readonly { label: string; means: Record<string, number | null> }[], metrics: readonly string[]): AttributionRow[] {
  return prefixMeans.map((prefix, index) => {
    const before = index === 0 ? null : prefixMeans[index - 1]!.means
    const means: Record<string, number | null> = {}
    const change: Record<string, number | null> = {}
    for (const metric of metrics) {
      const now = prefix.means[metric] ?? null
      const then = before?.[metric] ?? null
      means[metric] = now
      change[metric] = now === null || then === null ? null : now - then
    }
    return { label: prefix.label, means, change }
  })
}
