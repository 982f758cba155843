import { z } from 'zod'
import { issueBudget, listOf } from '../capped-issues'
import { querySourceFields, querySourceProblems } from '../workspace/query-source'
import { AggregateSchema } from './grade-aggregate'
import { ExplanationSchema, MAX_EXPLANATION, PromptDigestSchema } from './judge-notes'
import { RaterNameSchema, RaterSchema, UNNAMED_RATER } from './raters'

/**
 * A query set as a workspace file keeps it (`sets`, next to `tests`): a
 * request template, the queries it is filled with, and the graded judgments
 * people made of their results. Sets travel with the file, so a team shares
 * its judgments as it shares its queries.
 */

export const MAX_SET_QUERIES = 10_000
export const MAX_SET_JUDGMENTS = 200_000
/** What a template's parameter values hold where each query's text goes. */
export const QUERY_PLACEHOLDER = '{{query}}'

const Text = (max: number) => z.string().max(max)
/** A query's id in the set: what TREC qrels and run files name it by (no white space, which those formats split on). */
export const SetQueryIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^\S+$/, 'is not a query id: it has white space in it (TREC files split their lines on white space)')
/** An item as the answers key it (compare/item-key.ts): the first column's id. */
export const ItemIdSchema = z.string().min(1).max(2_000)

export const GradeSchema = z.number().int().min(0).max(100)

/** One step of a set's scale: a grade and what it means in words. */
export const ScaleStepSchema = z.object({ grade: GradeSchema, label: z.string().min(1).max(100) }).strict()

/** The grades a set judges in, lowest first; 0–3 (Poor, Fair, Good, Perfect) unless the set says otherwise. */
export const ScaleSchema = z
  .array(ScaleStepSchema)
  .min(2)
  .max(11)
  .superRefine((scale, context) => {
    scale.forEach((step, index) => {
      if (index > 0 && step.grade <= scale[index - 1]!.grade) {
        context.addIssue({ code: 'custom', path: [index, 'grade'], message: `grades go up one step after another: ${step.grade} follows ${scale[index - 1]!.grade}` })
      }
    })
  })

export const DEFAULT_SCALE: Scale = [
  { grade: 0, label: 'Poor' },
  { grade: 1, label: 'Fair' },
  { grade: 2, label: 'Good' },
  { grade: 3, label: 'Perfect' },
]

/** How the metrics read grades: see docs/METRICS.md for each choice and which tool agrees with it. */
export const MetricSettingsSchema = z
  .object({
    /** exponential: 2^g − 1 (Quepid, RRE, OpenSearch, Elasticsearch); linear: g (trec_eval). */
    gain: z.enum(['exponential', 'linear']).default('exponential'),
    /** zero: an unjudged item counts as not relevant (trec_eval, Quepid); skip: it is taken out of the ranking first. */
    unjudged: z.enum(['zero', 'skip']).default('zero'),
    /** For P, AP, RR and Recall an item is relevant when its grade is at least this. */
    threshold: GradeSchema.default(1),
    /** Which grade the metrics use where several raters graded an item (grade-aggregate.ts); mean when absent. */
    aggregate: AggregateSchema.optional(),
  })
  .strict()

export const SetQuerySchema = z
  .object({
    id: SetQueryIdSchema,
    text: z.string().max(2_000),
    notes: Text(10_000).optional(),
    tags: z.array(z.string().min(1).max(100)).max(50).optional(),
  })
  .strict()

/**
 * One rater's grade of one item for one query, as the app holds a judgment.
 * An LLM judge's grade (llm-judge.ts) also keeps the model's `explanation` and
 * the `promptDigest` of the prompt that produced it.
 */
export const RatedJudgmentSchema = z
  .object({
    query: SetQueryIdSchema,
    item: ItemIdSchema,
    rater: RaterNameSchema,
    grade: GradeSchema,
    explanation: ExplanationSchema.optional(),
    promptDigest: PromptDigestSchema.optional(),
  })
  .strict()

/**
 * A judgment line as a file holds it: `{ query, item, rater, grade }`. A line
 * of the previous format (before several raters) has no `rater` and may have
 * `by`, who gave it: that is its rater, or "unnamed" without one, so an old
 * file reads as before and is written in the new form when saved.
 */
export const JudgmentSchema = z
  .object({
    /** The query's id in the set. */
    query: SetQueryIdSchema,
    item: ItemIdSchema,
    rater: RaterNameSchema.optional(),
    grade: GradeSchema,
    /** The previous format's rater: a person's name, or where the grade came from (an imported file). */
    by: z.string().max(200).optional(),
    explanation: ExplanationSchema.optional(),
    promptDigest: PromptDigestSchema.optional(),
  })
  .strict()
  .transform(({ query, item, rater, grade, by, explanation, promptDigest }): RatedJudgment => withJudgeNotes({ query, item, rater: rater ?? (by || UNNAMED_RATER), grade }, explanation, promptDigest))

/** A judge's explanation and prompt digest onto a judgment, only where there are some (a person's judgment stays four keys). */
export function withJudgeNotes(judgment: RatedJudgment, explanation: string | undefined, promptDigest: string | undefined): RatedJudgment {
  if (explanation !== undefined) judgment.explanation = explanation
  if (promptDigest !== undefined) judgment.promptDigest = promptDigest
  return judgment
}

const QUERY_ID = /^\S+$/
const DIGEST = /^[0-9a-f]{64}$/

/**
 * JudgmentSchema's output for a judgment it plainly accepts, undefined for
 * anything else (which JudgmentSchema then checks and names): the same rules,
 * written by hand, because zod takes about 1.5 µs an entry, 0.3 s of opening
 * a set of 200,000 (test/shared/quick-judgment.test.ts holds the two equal).
 */
export function quickJudgment(value: unknown): Judgment | undefined {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return undefined
  const { query, item, rater, grade, by, explanation, promptDigest } = value as Record<string, unknown>
  if (typeof query !== 'string' || query.length < 1 || query.length > 200 || !QUERY_ID.test(query)) return undefined
  if (typeof item !== 'string' || item.length < 1 || item.length > 2_000) return undefined
  if (typeof grade !== 'number' || !Number.isInteger(grade) || grade < 0 || grade > 100) return undefined
  if (rater !== undefined && (typeof rater !== 'string' || rater.length < 1 || rater.length > 200)) return undefined
  if (by !== undefined && (typeof by !== 'string' || by.length > 200)) return undefined
  if (explanation !== undefined && (typeof explanation !== 'string' || explanation.length > MAX_EXPLANATION)) return undefined
  if (promptDigest !== undefined && (typeof promptDigest !== 'string' || !DIGEST.test(promptDigest))) return undefined
  // `.strict()`: no other key (nor an optional one that is there but undefined).
  const optional = [rater, by, explanation, promptDigest].filter((each) => each !== undefined).length
  if (Object.keys(value).length !== 3 + optional) return undefined
  return withJudgeNotes(
    { query, item, rater: rater ?? ((by as string | undefined) || UNNAMED_RATER), grade },
    explanation as string | undefined,
    promptDigest as string | undefined,
  )
}

/** How many raters a set may name: people, imports and models together. */
export const MAX_SET_RATERS = 1_000

export const QuerySetSchema = z
  .object({
    name: z.string().min(1).max(200),
    /** The template: a saved query of the file, or the set's own request. */
    ...querySourceFields,
    notes: Text(100_000).optional(),
    scale: ScaleSchema.optional(),
    settings: MetricSettingsSchema.optional(),
    /** Who graded the set's items, with their kind; a rater the judgments name and this leaves out is a person (raters.ts). */
    raters: z.array(RaterSchema).max(MAX_SET_RATERS).optional(),
    // Lists that name their first problems and count the rest: a file may hold 200,000 judgments, all wrong (capped-issues.ts).
    queries: listOf(SetQuerySchema, MAX_SET_QUERIES),
    judgments: listOf(JudgmentSchema, MAX_SET_JUDGMENTS, quickJudgment).default(() => []),
  })
  .strip()
  .superRefine((set, context) => {
    const problems = issueBudget(context)
    for (const problem of querySourceProblems(set, 'a query set', 'names a saved query as its template')) problems.add(problem)
    const ids = new Set<string>()
    set.queries.forEach((query, index) => {
      if (ids.has(query.id)) problems.add({ path: ['queries', index, 'id'], message: `the id "${query.id}" is used by two queries of the set` })
      ids.add(query.id)
    })
    const scale = set.scale ?? DEFAULT_SCALE
    const grades = new Set(scale.map((step) => step.grade))
    const raterNames = new Set<string>()
    set.raters?.forEach((rater, index) => {
      if (raterNames.has(rater.name)) problems.add({ path: ['raters', index, 'name'], message: `the rater "${rater.name}" is listed twice` })
      raterNames.add(rater.name)
    })
    const seen = new Set<string>()
    let tooMany = false
    set.judgments.forEach((judgment, index) => {
      // Those the judgments name count too: the file lists them when it is written (ratersOf), and must read again.
      if (!raterNames.has(judgment.rater)) {
        raterNames.add(judgment.rater)
        if (raterNames.size > MAX_SET_RATERS && !tooMany) {
          tooMany = true
          problems.add({ path: ['judgments', index, 'rater'], message: `"${judgment.rater}" is one rater more than the ${MAX_SET_RATERS.toLocaleString('en-US')} a set may have` })
        }
      }
      if (!ids.has(judgment.query)) problems.add({ path: ['judgments', index, 'query'], message: `names no query of the set ("${judgment.query}")` })
      if (!grades.has(judgment.grade)) {
        problems.add({ path: ['judgments', index, 'grade'], message: `${judgment.grade} is not a grade of the set's scale (${scaleText(scale)})` })
      }
      const key = `${judgment.query}\u0000${judgment.item}\u0000${judgment.rater}`
      if (seen.has(key)) problems.add({ path: ['judgments', index], message: `the rater "${judgment.rater}" judges the item "${judgment.item}" twice for the query "${judgment.query}"` })
      seen.add(key)
    })
    if (set.settings && !grades.has(set.settings.threshold) && set.settings.threshold > scale[scale.length - 1]!.grade) {
      problems.add({ path: ['settings', 'threshold'], message: `${set.settings.threshold} is above the scale's highest grade (${scale[scale.length - 1]!.grade})` })
    }
    problems.finish()
  })

export type Scale = z.infer<typeof ScaleSchema>
export type ScaleStep = z.infer<typeof ScaleStepSchema>
export type MetricSettings = z.infer<typeof MetricSettingsSchema>
export type SetQuery = z.infer<typeof SetQuerySchema>
export type RatedJudgment = z.infer<typeof RatedJudgmentSchema>
/** A judgment as the app holds it: every one names its rater. */
export type Judgment = RatedJudgment
export type QuerySet = z.infer<typeof QuerySetSchema>

export const DEFAULT_SETTINGS: MetricSettings = { gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'mean' }

export function scaleOf(set: Pick<QuerySet, 'scale'>): Scale {
  return set.scale ?? DEFAULT_SCALE
}

export function settingsOf(set: Pick<QuerySet, 'settings'>): MetricSettings {
  return { ...DEFAULT_SETTINGS, ...set.settings }
}

/** "0 Poor, 1 Fair, 2 Good, 3 Perfect". */
export function scaleText(scale: Scale): string {
  return scale.map((step) => `${step.grade} ${step.label}`).join(', ')
}

/** The judgments of one query, by item id. */
export type Grades = ReadonlyMap<string, number>
