import { z } from 'zod'

/**
 * Several raters per result (issue 35): a judgment names who gave it, and a
 * set lists its raters with their kind. Agreement (rater-agreement.ts) and the
 * grade the metrics use (grade-aggregate.ts) both read judgments that name
 * their rater (query-set.ts's RatedJudgmentSchema).
 */

/** person: rated in the window; import: a file's grades; model: an LLM judge or click model; adjudication: a settled grade, which always wins. */
export const RaterKindSchema = z.enum(['person', 'import', 'model', 'adjudication'])

export const RaterNameSchema = z.string().min(1).max(200)

export const RaterSchema = z.object({ name: RaterNameSchema, kind: RaterKindSchema }).strict()

export type RaterKind = z.infer<typeof RaterKindSchema>
export type Rater = z.infer<typeof RaterSchema>

/** The rater of a judgment from a file of the previous format that named no one (`by` absent). */
export const UNNAMED_RATER = 'unnamed'

/** An LLM judge's rater name starts so (llm-judge.ts's judgeRater): `llm:demo`. */
export const JUDGE_RATER_PREFIX = 'llm:'

/** The rater whose grade settles an item (kind adjudication), as Settle writes it. */
export const ADJUDICATION_RATER = 'adjudication'

/**
 * A set's raters: those it lists, in its order, then any its judgments name
 * and it leaves out (a file of the previous format lists none), in the order
 * first seen: as people (kind person), except the reserved name
 * "adjudication", Settle's, which is of kind adjudication, and an LLM
 * judge's "llm:…", of kind model.
 */
export function ratersOf(set: { raters?: readonly Rater[] | undefined; judgments: readonly { rater: string }[] }): Rater[] {
  const out = [...(set.raters ?? [])]
  const known = new Set(out.map((rater) => rater.name))
  for (const judgment of set.judgments) {
    if (known.has(judgment.rater)) continue
    known.add(judgment.rater)
    out.push({ name: judgment.rater, kind: judgment.rater === ADJUDICATION_RATER ? 'adjudication' : judgment.rater.startsWith(JUDGE_RATER_PREFIX) ? 'model' : 'person' })
  }
  return out
}

/** The kind of each rater, by name (ratersOf). */
export function raterKinds(set: Parameters<typeof ratersOf>[0]): (rater: string) => RaterKind | undefined {
  const kinds = new Map(ratersOf(set).map((rater) => [rater.name, rater.kind]))
  return (rater) => kinds.get(rater)
}

/** The kinds whose grades are people's: rated in the window, or read from another tool's file. */
export const PEOPLE_KINDS: readonly RaterKind[] = ['person', 'import']

/** Who a model judge is measured against (reference): the set's people, or where no person graded it, its other raters. */
export interface ReferenceRaters {
  /** true: people (kinds person and import); false: no person graded the set, so its raters of kind model that are not LLM judges (rules, click models). */
  people: boolean
  /** Their names, in the set's order of raters. */
  names: string[]
  has(rater: string): boolean
}

/**
 * The raters an LLM judge is calibrated against, its examples are taken
 * from, and whose grades the verdict's "people" table reads: the set's
 * people. A set no person graded (the example's synthetic raters, a set of
 * click grades) is measured against its other raters, never against LLM
 * judges nor the adjudicator (whose grade is shown as settled), and every
 * view says which it was.
 */
export function referenceRaters(set: Parameters<typeof ratersOf>[0]): ReferenceRaters {
  const raters = ratersOf(set)
  const graded = new Set<string>()
  for (const judgment of set.judgments) graded.add(judgment.rater)
  const people = raters.filter((rater) => PEOPLE_KINDS.includes(rater.kind) && graded.has(rater.name))
  const chosen = people.length > 0 ? people : raters.filter((rater) => rater.kind === 'model' && !rater.name.startsWith(JUDGE_RATER_PREFIX) && graded.has(rater.name))
  const names = chosen.map((rater) => rater.name)
  const set_ = new Set(names)
  return { people: people.length > 0, names, has: (rater) => set_.has(rater) }
}
