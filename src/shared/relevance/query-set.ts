import { z } from 'zod'
import { issueBudget, listOf } from '../capped-issues'
import { querySourceFields, querySourceProblems } from '../workspace/query-source'

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

export const JudgmentSchema = z
  .object({
    /** The query's id in the set. */
    query: SetQueryIdSchema,
    item: ItemIdSchema,
    grade: GradeSchema,
    /** Who gave it: a person's name, or where it came from (an imported file). */
    by: z.string().max(200).optional(),
  })
  .strict()

const QUERY_ID = /^\S+$/

/**
 * JudgmentSchema's output for a judgment it plainly accepts, undefined for
 * anything else (which JudgmentSchema then checks and names): the same rules,
 * written by hand, because zod takes about 1.5 µs an entry, 0.3 s of opening
 * a set of 200,000 (test/shared/quick-judgment.test.ts holds the two equal).
 */
export function quickJudgment(value: unknown): Judgment | undefined {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return undefined
  const { query, item, grade, by } = value as Record<string, unknown>
  if (typeof query !== 'string' || query.length < 1 || query.length > 200 || !QUERY_ID.test(query)) return undefined
  if (typeof item !== 'string' || item.length < 1 || item.length > 2_000) return undefined
  if (typeof grade !== 'number' || !Number.isInteger(grade) || grade < 0 || grade > 100) return undefined
  if (by !== undefined && (typeof by !== 'string' || by.length > 200)) return undefined
  // `.strict()`: no other key (nor a `by` that is there but undefined).
  if (Object.keys(value).length !== (by === undefined ? 3 : 4)) return undefined
  return by === undefined ? { query, item, grade } : { query, item, grade, by }
}

export const QuerySetSchema = z
  .object({
    name: z.string().min(1).max(200),
    /** The template: a saved query of the file, or the set's own request. */
    ...querySourceFields,
    notes: Text(100_000).optional(),
    scale: ScaleSchema.optional(),
    settings: MetricSettingsSchema.optional(),
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
    const seen = new Set<string>()
    set.judgments.forEach((judgment, index) => {
      if (!ids.has(judgment.query)) problems.add({ path: ['judgments', index, 'query'], message: `names no query of the set ("${judgment.query}")` })
      if (!grades.has(judgment.grade)) {
        problems.add({ path: ['judgments', index, 'grade'], message: `${judgment.grade} is not a grade of the set's scale (${scaleText(scale)})` })
      }
      const key = `${judgment.query}\u0000${judgment.item}`
      if (seen.has(key)) problems.add({ path: ['judgments', index], message: `the query "${judgment.query}" judges the item "${judgment.item}" twice` })
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
export type Judgment = z.infer<typeof JudgmentSchema>
export type QuerySet = z.infer<typeof QuerySetSchema>

export const DEFAULT_SETTINGS: MetricSettings = { gain: 'exponential', unjudged: 'zero', threshold: 1 }

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

/** Every query's judgments, by query id then item id. */
export function gradesByQuery(judgments: readonly Judgment[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>()
  for (const judgment of judgments) {
    let grades = out.get(judgment.query)
    if (!grades) out.set(judgment.query, (grades = new Map()))
    grades.set(judgment.item, judgment.grade)
  }
  return out
}
