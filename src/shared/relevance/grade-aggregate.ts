import { z } from 'zod'
import { ratersOf, type Rater, type RaterKind } from './raters'

/**
 * The grade the metrics use for an item that several raters graded (issue
 * 35, point 2). Quepid names max and min optimistic and pessimistic. A grade
 * by a rater of kind "adjudication" settles the item whatever the rule.
 * docs/METRICS.md says which rules keep the figures equal to trec_eval's.
 */

export const AggregateSchema = z.union([
  z.enum(['mean', 'median', 'majority', 'max', 'min']),
  z
    .string()
    .max(206)
    .regex(/^rater:.+$/, 'is not an aggregate: mean, median, majority, max, min or rater:NAME') as z.ZodType<`rater:${string}`>,
])

export type Aggregate = z.infer<typeof AggregateSchema>

export const DEFAULT_AGGREGATE: Aggregate = 'mean'

/** Each rule in words, as the set dialog offers it. */
export const AGGREGATE_WORDS: Record<Exclude<Aggregate, `rater:${string}`>, string> = {
  mean: "Mean of the raters' grades",
  median: 'Median (of an even count, the mean of the middle two)',
  majority: 'Majority (a tie goes to the lower grade)',
  max: 'Optimistic: the highest grade',
  min: 'Pessimistic: the lowest grade',
}

/** The rules a set may use, then one rater's grades alone for each of its raters (an adjudicator's grade wins in every one). */
export function aggregateChoices(raters: readonly Rater[]): { value: Aggregate; label: string }[] {
  const rules = (Object.keys(AGGREGATE_WORDS) as (keyof typeof AGGREGATE_WORDS)[]).map((value) => ({ value: value as Aggregate, label: AGGREGATE_WORDS[value] }))
  const own = raters.filter((rater) => rater.kind !== 'adjudication').map((rater) => ({ value: `rater:${rater.name}` as Aggregate, label: `${rater.name}'s grades only` }))
  return [...rules, ...own]
}

export interface RaterGrade {
  rater: string
  grade: number
}

function byRule(grades: readonly number[], aggregate: Exclude<Aggregate, `rater:${string}`>): number {
  switch (aggregate) {
    case 'mean': {
      let sum = 0
      for (const grade of grades) sum += grade
      return sum / grades.length
    }
    case 'max':
      return Math.max(...grades)
    case 'min':
      return Math.min(...grades)
    case 'median': {
      const sorted = [...grades].sort((x, y) => x - y)
      const middle = sorted.length >> 1
      return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
    }
    case 'majority': {
      const counts = new Map<number, number>()
      for (const grade of grades) counts.set(grade, (counts.get(grade) ?? 0) + 1)
      let best = Number.POSITIVE_INFINITY
      let most = 0
      // Ties go to the lower grade: a doubt counts against the item.
      for (const [grade, count] of counts) if (count > most || (count === most && grade < best)) [best, most] = [grade, count]
      return best
    }
  }
}

/**
 * One item's grade from its raters' grades, or undefined when the rule gives
 * none (no grade at all, or `rater:NAME` and NAME did not grade it).
 * Adjudicated grades win; if two adjudicators graded the item, the rule is
 * applied to their grades alone (`rater:NAME` takes NAME's adjudication if it
 * is one, otherwise their mean).
 */
export function aggregateGrade(grades: readonly RaterGrade[], aggregate: Aggregate, kindOf: (rater: string) => RaterKind | undefined): number | undefined {
  const adjudicated = grades.filter((grade) => kindOf(grade.rater) === 'adjudication')
  const pool = adjudicated.length > 0 ? adjudicated : grades
  if (pool.length === 0) return undefined
  if (aggregate.startsWith('rater:')) {
    const name = aggregate.slice('rater:'.length)
    const own = pool.find((grade) => grade.rater === name)
    if (own) return own.grade
    return adjudicated.length > 0 ? byRule(pool.map((grade) => grade.grade), 'mean') : undefined
  }
  return byRule(
    pool.map((grade) => grade.grade),
    aggregate as Exclude<Aggregate, `rater:${string}`>,
  )
}

/**
 * Every item's grade, by query id then item id, as the metrics read them
 * (query-set.ts's gradesByQuery for one rater). A rater who graded an item
 * twice for a query counts with the later grade; an item the rule gives no
 * grade (`rater:NAME` where NAME did not grade it) is left out, i.e. unjudged.
 */
export function aggregateGrades(
  judgments: readonly { query: string; item: string; rater: string; grade: number }[],
  aggregate: Aggregate,
  raters: readonly { name: string; kind: RaterKind }[] = [],
): Map<string, Map<string, number>> {
  const kinds = new Map(raters.map((rater) => [rater.name, rater.kind]))
  const kindOf = (rater: string) => kinds.get(rater)
  const grouped = new Map<string, Map<string, RaterGrade[]>>()
  for (const judgment of judgments) {
    let items = grouped.get(judgment.query)
    if (!items) grouped.set(judgment.query, (items = new Map()))
    const grades = items.get(judgment.item)
    const entry = { rater: judgment.rater, grade: judgment.grade }
    if (!grades) items.set(judgment.item, [entry])
    else {
      const same = grades.findIndex((grade) => grade.rater === judgment.rater)
      if (same >= 0) grades[same] = entry
      else grades.push(entry)
    }
  }
  const out = new Map<string, Map<string, number>>()
  for (const [query, items] of grouped) {
    const graded = new Map<string, number>()
    for (const [item, grades] of items) {
      const grade = aggregateGrade(grades, aggregate, kindOf)
      if (grade !== undefined) graded.set(item, grade)
    }
    out.set(query, graded)
  }
  return out
}

/**
 * The grades the metrics use for a set, by query id then item id: its
 * judgments under its own aggregate (settings.aggregate, mean by default), or
 * the one given (the command line's --aggregate).
 */
export function gradesOfSet(
  set: { judgments: readonly { query: string; item: string; rater: string; grade: number }[]; raters?: readonly Rater[] | undefined; settings?: { aggregate?: Aggregate | undefined } | undefined },
  aggregate: Aggregate = set.settings?.aggregate ?? DEFAULT_AGGREGATE,
): Map<string, Map<string, number>> {
  return aggregateGrades(set.judgments, aggregate, ratersOf(set))
}

/** One rater's own grades, by query id then item id: what that person has rated (the Judge dialog's and the grid's). */
export function gradesOfRater(judgments: readonly { query: string; item: string; rater: string; grade: number }[], rater: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>()
  for (const judgment of judgments) {
    if (judgment.rater !== rater) continue
    let grades = out.get(judgment.query)
    if (!grades) out.set(judgment.query, (grades = new Map()))
    grades.set(judgment.item, judgment.grade)
  }
  return out
}
