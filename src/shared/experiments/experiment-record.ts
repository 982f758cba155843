import { z } from 'zod'
import { RunTargetSchema } from '../compare/compare-targets'
import { EvaluationSchema } from '../relevance/evaluation'

/**
 * An experiment as it crosses to the window and is kept: its sides (each an
 * evaluation kept on its own, by id), the per-step attribution's
 * evaluations, and the statistics (experiment.ts) comparing the sides.
 */

const Figures = z.record(z.string(), z.number().nullable())

export const QueryDeltaSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** The query's figure on each side; null when it failed, has no judgment, or is not on that side. */
  baseline: z.number().nullable(),
  other: z.number().nullable(),
  /** other − baseline when both have a figure (0 when within the tie tolerance), else null. */
  delta: z.number().nullable(),
  /** Unjudged items among both sides' top judgeDepth (the union): what could still change this delta. */
  unjudged: z.number().int(),
  failed: z.enum(['baseline', 'other', 'both']).nullable(),
})

export const MetricComparisonSchema = z.object({
  metric: z.string(),
  /** Index into the other sides. */
  other: z.number().int(),
  /** Means over the paired queries only (not the evaluations' own means, which count every query with figures). */
  baselineMean: z.number().nullable(),
  otherMean: z.number().nullable(),
  /** Paired queries. */
  n: z.number().int(),
  meanDelta: z.number().nullable(),
  /** Paired queries where the other side is better, equal within the tie tolerance, worse. */
  wins: z.number().int(),
  ties: z.number().int(),
  losses: z.number().int(),
  /** The randomization test's two-sided p-value; null when nothing is paired. */
  p: z.number().nullable(),
  method: z.enum(['exact', 'sampled']).nullable(),
  permutations: z.number().int(),
  /** p after Holm's adjustment over the `family` comparisons that have a p. */
  pAdjusted: z.number().nullable(),
  /** The percentile bootstrap interval of the mean delta at level 1 − alpha (not adjusted for the family). */
  interval: z.tuple([z.number(), z.number()]).nullable(),
  /** pAdjusted < alpha. */
  significant: z.boolean(),
})

export const ExperimentStatsSchema = z.object({
  /** The baseline's metric keys, in its order, that at least one other side also has. */
  metrics: z.array(z.string()),
  alpha: z.number(),
  /** Comparisons Holm corrects over: those with at least one paired query. */
  family: z.number().int(),
  /** One per other side and metric both have: by other side, then in the baseline's metric order. */
  comparisons: z.array(MetricComparisonSchema),
  /** Per comparison (`${other}:${metric}`): every query of either side, the baseline's first, in their order. */
  deltas: z.record(z.string(), z.array(QueryDeltaSchema)),
  /** Every failed query of every side: side −1 is the baseline, else the other's index. */
  failed: z.array(z.object({ side: z.number().int(), id: z.string(), text: z.string(), error: z.string() })),
})

/** What an experiment ran, as its evaluations record it: the set, its workspace, when it started, how deep, how judged. */
export const ExperimentRecordSchema = EvaluationSchema.pick({ id: true, set: true, workspace: true, at: true, depth: true, judgeDepth: true, settings: true, scale: true }).extend({
  /** The baseline first. */
  sides: z.array(z.object({ label: z.string(), target: RunTargetSchema.nullable(), evaluationId: z.string(), means: Figures })),
  /** Per-step attribution on the baseline's target: each prefix of the template, shortest first (empty when not asked). */
  attribution: z.array(z.object({ label: z.string(), steps: z.number().int(), evaluationId: z.string(), means: Figures })),
  stats: ExperimentStatsSchema,
  state: z.enum(['done', 'cancelled']),
  durationMs: z.number(),
  /** Pages answered from those already fetched within the run. */
  reused: z.number().int(),
})

export const ExperimentSummarySchema = ExperimentRecordSchema.omit({ stats: true }).extend({
  /** How many comparisons were significant, of how many. */
  significant: z.number().int(),
  comparisons: z.number().int(),
})

export type QueryDelta = z.infer<typeof QueryDeltaSchema>
export type MetricComparison = z.infer<typeof MetricComparisonSchema>
export type ExperimentStats = z.infer<typeof ExperimentStatsSchema>
export type ExperimentRecord = z.infer<typeof ExperimentRecordSchema>
export type ExperimentSummary = z.infer<typeof ExperimentSummarySchema>

export function experimentSummary(record: ExperimentRecord): ExperimentSummary {
  const { stats, ...rest } = record
  return { ...rest, significant: stats.comparisons.filter((comparison) => comparison.significant).length, comparisons: stats.comparisons.length }
}
