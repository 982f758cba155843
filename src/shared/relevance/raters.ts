import { z } from 'zod'
import { GradeSchema, ItemIdSchema, SetQueryIdSchema } from './query-set'

/**
 * Several raters per result (issue 35): a judgment names who gave it, and a
 * set lists its raters with their kind. Agreement (rater-agreement.ts) and the
 * grade the metrics use (grade-aggregate.ts) both read judgments of this shape.
 */

/** person: rated in the window; import: a file's grades; model: an LLM judge or click model; adjudication: a settled grade, which always wins. */
export const RaterKindSchema = z.enum(['person', 'import', 'model', 'adjudication'])

export const RaterNameSchema = z.string().min(1).max(200)

export const RaterSchema = z.object({ name: RaterNameSchema, kind: RaterKindSchema }).strict()

/** One rater's grade of one item for one query. */
export const RatedJudgmentSchema = z
  .object({ query: SetQueryIdSchema, item: ItemIdSchema, rater: RaterNameSchema, grade: GradeSchema })
  .strict()

export type RaterKind = z.infer<typeof RaterKindSchema>
export type Rater = z.infer<typeof RaterSchema>
export type RatedJudgment = z.infer<typeof RatedJudgmentSchema>
