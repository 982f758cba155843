import { z } from 'zod'
import { EvaluationSchema, ScoredSchema } from './evaluation'

/** An evaluation as lists show it: what it ran on and its means, without the rankings and per-query figures. */
export const EvaluationSummarySchema = EvaluationSchema.omit({ rankings: true, scored: true }).extend({
  scored: ScoredSchema.omit({ queries: true }),
})

export type EvaluationSummary = z.infer<typeof EvaluationSummarySchema>

/**
 * Why two evaluations' figures can't be set side by side, as sentences; empty
 * when they can: the same set (template and queries), judgments, depth and settings.
 */
export function notComparable(a: EvaluationSummary, b: EvaluationSummary): string[] {
  const why: string[] = []
  if (a.set !== b.set) why.push(`they evaluate different sets ("${a.set}", "${b.set}")`)
  else if (a.setDigest !== b.setDigest) why.push("the set's template or queries changed between them")
  if (a.judgmentsDigest !== b.judgmentsDigest) why.push('the judgments changed between them')
  if (a.depth !== b.depth) why.push(`they ran to different depths (${a.depth}, ${b.depth})`)
  const settings = (s: EvaluationSummary['settings']) => `${s.gain} gain, unjudged ${s.unjudged === 'zero' ? 'as not relevant' : 'skipped'}, relevant from grade ${s.threshold}`
  if (settings(a.settings) !== settings(b.settings)) why.push(`their settings differ (${settings(a.settings)}; ${settings(b.settings)})`)
  return why
}
