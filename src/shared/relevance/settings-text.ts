import { DEFAULT_AGGREGATE, type Aggregate } from './grade-aggregate'
import type { MetricSettings, Scale } from './query-set'
import { raterKinds, type Rater } from './raters'

/**
 * How an evaluation read its grades, in words, as shown beside every figure
 * (the window) and under every table (the command line).
 */

/** Who graded a set's items, as far as the words beside its figures need: the aggregate matters from two raters. */
export interface GradeSources {
  /** Raters the judgments name (a rater listed who graded nothing changes no grade). */
  raters: number
  /** Some item has a settled grade (a rater of kind adjudication), which wins whatever the rule. */
  adjudicated: boolean
}

export function gradeSourcesOf(set: { raters?: readonly Rater[] | undefined; judgments: readonly { rater: string }[] }): GradeSources {
  const names = new Set<string>()
  for (const judgment of set.judgments) names.add(judgment.rater)
  const kindOf = raterKinds(set)
  return { raters: names.size, adjudicated: [...names].some((name) => kindOf(name) === 'adjudication') }
}

/**
 * "grade: mean of the raters' grades": which grade the metrics use where
 * several raters graded an item (grade-aggregate.ts), in Quepid's words for
 * max and min; null with fewer than two raters, where every rule gives the
 * one grade there is.
 */
export function aggregateText(aggregate: Aggregate | undefined, sources: GradeSources): string | null {
  if (sources.raters < 2) return null
  const rule = aggregate ?? DEFAULT_AGGREGATE
  const words = (() => {
    switch (rule) {
      case 'mean':
        return "mean of the raters' grades"
      case 'median':
        return "median of the raters' grades"
      case 'majority':
        return "majority of the raters' grades (ties to the lower)"
      case 'max':
        return "optimistic (the highest of the raters' grades)"
      case 'min':
        return "pessimistic (the lowest of the raters' grades)"
      default: {
        // A name with spaces or punctuation ("rule: strict", "llm:gpt") is quoted, so the line still reads as one.
        const name = rule.slice('rater:'.length)
        return `rater ${/^[\p{L}\p{N}._@-]+$/u.test(name) ? name : `"${name}"`}'s`
      }
    }
  })()
  return `grade: ${words}${sources.adjudicated ? ', a settled grade wins' : ''}`
}

/** The window's line; `sources` (gradeSourcesOf the set) adds the aggregate where two raters or more graded. */
export function settingsText(settings: MetricSettings, scale: Scale, depth?: number, sources?: GradeSources): string {
  const threshold = scale.find((step) => step.grade === settings.threshold)
  const aggregate = sources ? aggregateText(settings.aggregate, sources) : null
  return [
    ...(aggregate !== null ? [aggregate] : []),
    settings.gain === 'exponential' ? 'exponential gain (2^g − 1)' : 'linear gain (g)',
    settings.unjudged === 'zero' ? 'unjudged results count as not relevant' : 'unjudged results skipped',
    `relevant from grade ${settings.threshold}${threshold ? ` (${threshold.label})` : ''}`,
    ...(depth !== undefined ? [`depth ${depth}`] : []),
  ].join(' · ')
}
