import { z } from 'zod'
import { EvaluationSchema, QueryRankingSchema, type Evaluation } from './evaluation'
import { ItemIdSchema, SetQueryIdSchema } from './query-set'

/**
 * A kept evaluation without its rankings: what `eval:get` answers. The
 * rankings (3,000 queries at depth 1,000 are ~97 MB) stay in the data
 * folder's database and are read a page at a time (`eval:rankings`); the
 * head says how many there are, and each ranking's top `judgeDepth` items,
 * which Judge shows as a query's preview before its results come.
 */
export const EvaluationHeadSchema = EvaluationSchema.omit({ rankings: true }).extend({
  /** How many rankings the evaluation holds: one a query that ran or failed. */
  rankingCount: z.number().int().min(0),
  /** Each query that ran: its first `judgeDepth` items, by query id. */
  previews: z.record(SetQueryIdSchema, z.array(ItemIdSchema)),
})

/** A page of a kept evaluation's rankings, in the evaluation's order. */
export const RankingPageSchema = z.object({
  /** Rankings in all, so a reader knows where the pages end. */
  total: z.number().int().min(0),
  offset: z.number().int().min(0),
  rankings: z.array(QueryRankingSchema),
})

export type EvaluationHead = z.infer<typeof EvaluationHeadSchema>
export type RankingPage = z.infer<typeof RankingPageSchema>

/** The most rankings a page holds: at depth 1,000 a ranking is ~32 KB, so a page stays under ~3 MB. */
export const MAX_RANKING_PAGE = 100

/** The head of a whole evaluation. */
export function headOf(evaluation: Evaluation): EvaluationHead {
  const { rankings, ...rest } = evaluation
  const previews: Record<string, string[]> = {}
  for (const ranking of rankings) if (ranking.error === null) previews[ranking.id] = ranking.items.slice(0, evaluation.judgeDepth)
  return { ...rest, rankingCount: rankings.length, previews }
}
