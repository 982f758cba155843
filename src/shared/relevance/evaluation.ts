import { z } from 'zod'
import { RunTargetSchema } from '../compare/compare-targets'
import { metricKey, scoreQuery, unjudgedInTop, type MetricSpec } from './metrics'
import { gradesOfSet } from './grade-aggregate'
import { DEFAULT_SCALE, ItemIdSchema, MetricSettingsSchema, ScaleSchema, SetQueryIdSchema, type MetricSettings, type QuerySet } from './query-set'

/**
 * An evaluation: a set's queries run on one target, each query's ranking,
 * and the figures the set's judgments give them. The rankings are kept, so
 * the figures follow new judgments and other settings without asking the
 * service again; the window, the command line and the kept record all score
 * through `scoreRankings`.
 */

/** One query's answer as the evaluation keeps it: the item ids best first (a failed query has none and says why). */
export const QueryRankingSchema = z.object({
  id: SetQueryIdSchema,
  text: z.string(),
  items: z.array(ItemIdSchema),
  /** What a person recognises each item by (its name), for the top `judgeDepth`; the rest are not shown. */
  labels: z.array(z.string()),
  /** Each item's probability, as the service gave it (kept evaluations from before they were kept have none). */
  probabilities: z.array(z.number()).optional(),
  /** What the evaluation changed in what the service gave, and why ("Probabilities left out: …"); the figures carry it too. */
  note: z.string().optional(),
  error: z.string().nullable(),
  durationMs: z.number(),
})

export const QueryScoresSchema = z.object({
  id: SetQueryIdSchema,
  text: z.string(),
  /** Each metric by its key (`ndcg@10`); null when the query failed or has no judgment at all (left out of the means, as trec_eval leaves it out). */
  scores: z.record(z.string(), z.number()).nullable(),
  /** Unjudged items in the top `judgeDepth`. */
  unjudged: z.number().int(),
  returned: z.number().int(),
  /** The ranking's note, when it has one. */
  note: z.string().optional(),
  error: z.string().nullable(),
})

export const ScoredSchema = z.object({
  metrics: z.array(z.string()),
  queries: z.array(QueryScoresSchema),
  /** The mean of each metric over the queries with figures; null when none has. */
  means: z.record(z.string(), z.number().nullable()),
  /** Queries in the means, queries with no judgment, queries that failed. */
  counted: z.number().int(),
  unjudgedQueries: z.number().int(),
  failed: z.number().int(),
  /** Unjudged items in every query's top `judgeDepth`, together. */
  unjudged: z.number().int(),
})

export const EvaluationSchema = z.object({
  id: z.string().min(1).max(200),
  set: z.string(),
  /** The workspace the set came from, by name. */
  workspace: z.string(),
  target: RunTargetSchema.nullable(),
  /** "Demo, config production". */
  targetText: z.string(),
  /** ISO time it started. */
  at: z.string(),
  depth: z.number().int(),
  judgeDepth: z.number().int(),
  settings: MetricSettingsSchema,
  scale: ScaleSchema,
  /** sha-256 of the set's template and queries, and of its judgments, when it ran: two evaluations are comparable when these agree. */
  setDigest: z.string(),
  judgmentsDigest: z.string(),
  state: z.enum(['done', 'cancelled']),
  durationMs: z.number(),
  /** Set on a per-step attribution's evaluation ("1–2: + country:FILTER"): the template cut there, not the set's own; lists of the set's evaluations leave these out. */
  step: z.string().optional(),
  rankings: z.array(QueryRankingSchema),
  scored: ScoredSchema,
})

export type QueryRanking = z.infer<typeof QueryRankingSchema>
export type QueryScores = z.infer<typeof QueryScoresSchema>
export type Scored = z.infer<typeof ScoredSchema>
export type Evaluation = z.infer<typeof EvaluationSchema>

/** How deep "unjudged in the top k" and Judge look: Coverage's k, else nDCG's, else 10. */
export function judgeDepthOf(metrics: readonly MetricSpec[]): number {
  return metrics.find((metric) => metric.name === 'coverage')?.k ?? metrics.find((metric) => metric.name === 'ndcg')?.k ?? 10
}

/** The figures of each query and their means, from the rankings and the set's judgments as they are now. */
export function scoreRankings(
  rankings: readonly QueryRanking[],
  set: Pick<QuerySet, 'judgments' | 'scale' | 'raters'>,
  metrics: readonly MetricSpec[],
  settings: MetricSettings,
  judgeDepth: number,
): Scored {
  const scorer = rankingScorer(set, metrics, settings, judgeDepth)
  for (const ranking of rankings) scorer.add(ranking)
  return scorer.result()
}

/**
 * scoreRankings a ranking at a time, for rankings read a page at a time
 * (a kept evaluation's, from the data folder's database): the same figures,
 * without holding every ranking at once.
 */
export function rankingScorer(
  set: Pick<QuerySet, 'judgments' | 'scale' | 'raters'>,
  metrics: readonly MetricSpec[],
  settings: MetricSettings,
  judgeDepth: number,
): { add: (ranking: QueryRanking) => void; result: () => Scored } {
  const grades = gradesOfSet(set, settings.aggregate)
  const scale = set.scale ?? DEFAULT_SCALE
  const keys = metrics.map(metricKey)
  const sums = new Map(keys.map((key) => [key, 0]))
  let counted = 0
  let unjudgedQueries = 0
  let failed = 0
  let unjudgedTotal = 0
  const queries: QueryScores[] = []
  const score = (ranking: QueryRanking): QueryScores => {
    const own = grades.get(ranking.id) ?? new Map<string, number>()
    const unjudged = ranking.error === null ? unjudgedInTop(ranking.items, own, judgeDepth) : 0
    unjudgedTotal += unjudged
    const base = { id: ranking.id, text: ranking.text, unjudged, returned: ranking.items.length, ...(ranking.note === undefined ? {} : { note: ranking.note }), error: ranking.error }
    if (ranking.error !== null) {
      failed++
      return { ...base, scores: null }
    }
    if (own.size === 0) {
      unjudgedQueries++
      return { ...base, scores: null }
    }
    const scores = scoreQuery(ranking.items, own, metrics, settings, scale)
    counted++
    for (const key of keys) sums.set(key, sums.get(key)! + scores[key]!)
    return { ...base, scores }
  }
  return {
    add: (ranking) => void queries.push(score(ranking)),
    result: () => {
      const means = Object.fromEntries(keys.map((key) => [key, counted === 0 ? null : sums.get(key)! / counted]))
      return { metrics: keys, queries, means, counted, unjudgedQueries, failed, unjudged: unjudgedTotal }
    },
  }
}
