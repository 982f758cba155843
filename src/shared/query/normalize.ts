import { isEndpointStep, type ContextStep, type QueryRequest, type Step } from './model'
import { setEntry } from './records'

/**
 * The normal form of a chain: what a URL can say.
 *
 * Two kinds of chain write the same path as a simpler one:
 * - a context step with no pair writes nothing;
 * - adjacent context steps write one run of `/c/` pairs, which reads back as
 *   one context step.
 *
 * Decision: both stay legal in the model (the chain editor shows one card per
 * step, and a user may add two context cards in a row), and the codec is
 * defined on the normal form: `buildUrl` writes `normalizeRequest(r)`, and
 * `parseUrl(buildUrl(base, r))` gives back `normalizeRequest(r)`, which is `r`
 * itself whenever `r` is already normal. Validation still reports an empty
 * context step, because an empty card the user left is more likely a mistake
 * than an intention, and sending it would silently drop it; adjacent context
 * steps are merged without complaint.
 *
 * When adjacent context steps name the same parameter, the later value wins,
 * as it does when `/c/a/1/c/a/2` is read: a context pair applies to the
 * endpoints after it, so the last one before an endpoint is the one in force.
 */

export function isNormalChain(steps: readonly Step[]): boolean {
  let previousWasContext = false
  for (const step of steps) {
    if (isEndpointStep(step)) {
      previousWasContext = false
      continue
    }
    if (previousWasContext) return false
    for (const _ in step.context) {
      previousWasContext = true
      break
    }
    if (!previousWasContext) return false
  }
  return true
}

export function normalizeSteps(steps: readonly Step[]): Step[] {
  const out: Step[] = []
  let open: ContextStep | null = null
  for (const step of steps) {
    if (isEndpointStep(step)) {
      out.push(step)
      open = null
      continue
    }
    const entries = Object.entries(step.context)
    if (entries.length === 0) continue
    if (!open) {
      open = { context: {} }
      out.push(open)
    }
    for (const [name, value] of entries) setEntry(open.context, name, value)
  }
  return out
}

export function normalizeRequest(request: QueryRequest): QueryRequest {
  return isNormalChain(request.steps) ? request : { ...request, steps: normalizeSteps(request.steps) }
}
