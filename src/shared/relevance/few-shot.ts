import { textSeed } from '../seeded-random'
import { aggregateGrade, DEFAULT_AGGREGATE, type Aggregate, type RaterGrade } from './grade-aggregate'
import type { FewShotExample } from './llm-judge'
import type { QuerySet, Scale } from './query-set'
import { raterKinds, referenceRaters } from './raters'

/**
 * Few-shot from people (issue 36, point 5): a judge may take N examples of
 * the set's reference-graded items (its people's, or where no person graded
 * the set its other raters', as raters.ts's referenceRaters says), with the
 * grade and the query's notes, into its prompt, never from the query being
 * judged, so an example never gives that query's answer away.
 *
 * The prompt (and so its digest, which says whether a grade is stale, and
 * the cache key) must change only when something it shows changed. So the
 * candidates are ordered by a hash of (seed, query, item), each on its own:
 * a new grade elsewhere moves no other candidate, and changes only the
 * examples of the queries whose first N it enters. Examples come from the
 * first N + FEW_SHOT_SPARE candidates only (the pool), whatever the run
 * fetched: judgeSet fetches the pool's queries too (at the judge's own
 * depth), so a Retry failed, a judge-next queue or another --depth gives
 * the same prompts; a candidate whose item is not in its query's results is
 * skipped (the same skip every run, given the service).
 */

/** Candidates past the first N that the pool holds, for those skipped (the query's own, an item gone from the results). */
export const FEW_SHOT_SPARE = 10

export interface FewShotInput {
  set: Pick<QuerySet, 'queries' | 'judgments' | 'raters' | 'settings'>
  scale: Scale
  /** How many examples (the judge's fewShot). */
  count: number
  /** The judge's fewShotSeed. */
  seed: number
  /** Items whose content is known, by query id then item: the pool's queries' results (fewShotQueries), fetched at the judge's depth. */
  contents: ReadonlyMap<string, ReadonlyMap<string, Record<string, unknown>>>
}

/** A reference-graded item that may be an example, with its grade on the scale. */
export interface Candidate {
  query: string
  item: string
  grade: number
}

/** The scale's grade nearest to a value (a mean of 2 and 3 is 2.5): ties go to the lower grade, a doubt counting against the item. */
function nearestGrade(scale: Scale, value: number): number {
  let best = scale[0]!.grade
  for (const step of scale) if (Math.abs(step.grade - value) < Math.abs(best - value)) best = step.grade
  return best
}

/**
 * The people's grade of each item they graded, by the set's aggregate (a
 * rule naming one rater who is no person, `rater:llm:…`, is read as the
 * mean), in no particular order (fewShotPool orders them).
 */
function peopleGraded(set: FewShotInput['set'], scale: Scale): Candidate[] {
  const kindOf = raterKinds(set)
  // The people, or where no person graded the set, its other raters (raters.ts): as the judge is calibrated against.
  const reference = referenceRaters(set)
  let aggregate: Aggregate = set.settings?.aggregate ?? DEFAULT_AGGREGATE
  if (aggregate.startsWith('rater:') && !reference.has(aggregate.slice('rater:'.length))) aggregate = DEFAULT_AGGREGATE
  const byItem = new Map<string, { query: string; item: string; grades: RaterGrade[]; byPerson: boolean }>()
  for (const judgment of set.judgments) {
    const kind = kindOf(judgment.rater)
    if (!reference.has(judgment.rater) && kind !== 'adjudication') continue
    const key = `${judgment.query}\u0000${judgment.item}`
    let entry = byItem.get(key)
    if (!entry) byItem.set(key, (entry = { query: judgment.query, item: judgment.item, grades: [], byPerson: false }))
    entry.grades.push({ rater: judgment.rater, grade: judgment.grade })
    // An item is an example once a person graded it (in the window or a file); a settled grade then wins, as in the metrics.
    if (kind !== 'adjudication') entry.byPerson = true
  }
  const out: Candidate[] = []
  for (const entry of byItem.values()) {
    const grade = aggregateGrade(entry.grades, aggregate, kindOf)
    if (grade !== undefined && entry.byPerson) out.push({ query: entry.query, item: entry.item, grade: nearestGrade(scale, grade) })
  }
  return out
}

/**
 * The first `count` + FEW_SHOT_SPARE candidates (of the set's queries), by
 * a hash of (seed, query, item); ties (a 32-bit hash) by query id, then
 * item, so the file's order of lines (which a merge may change) never
 * changes them.
 */
export function fewShotPool(input: Omit<FewShotInput, 'contents'>): Candidate[] {
  const count = Math.max(0, Math.floor(input.count))
  if (count === 0) return []
  const queries = new Set(input.set.queries.map((query) => query.id))
  const ranked = peopleGraded(input.set, input.scale)
    .filter((candidate) => queries.has(candidate.query))
    .map((candidate) => ({ candidate, rank: textSeed(`${input.seed}\u0000${candidate.query}\u0000${candidate.item}`) }))
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)
  ranked.sort((x, y) => x.rank - y.rank || text(x.candidate.query, y.candidate.query) || text(x.candidate.item, y.candidate.item))
  return ranked.slice(0, count + FEW_SHOT_SPARE).map((each) => each.candidate)
}

/** The queries whose results the few-shot examples come from: what a judging fetches besides its own, so its examples do not depend on what it judges. */
export function fewShotQueries(input: Omit<FewShotInput, 'contents'>): string[] {
  return [...new Set(fewShotPool(input).map((candidate) => candidate.query))]
}

/**
 * A chooser for one run: each query's examples are the first `count` of
 * the pool that are of another query and whose content is known. Made once
 * a run, so each query costs at most the pool, not the set.
 */
export function fewShotChooser(input: FewShotInput): (queryId: string) => FewShotExample[] {
  const count = Math.max(0, Math.floor(input.count))
  if (count === 0) return () => []
  const queries = new Map(input.set.queries.map((query) => [query.id, query]))
  const shown: (Candidate & { fields: Record<string, unknown> })[] = []
  for (const candidate of fewShotPool(input)) {
    const fields = input.contents.get(candidate.query)?.get(candidate.item)
    if (fields) shown.push({ ...candidate, fields })
  }
  const byQuery = new Map<string, FewShotExample[]>()
  return (queryId) => {
    const known = byQuery.get(queryId)
    if (known) return known
    const examples: FewShotExample[] = []
    for (const candidate of shown) {
      if (examples.length >= count) break
      if (candidate.query === queryId) continue
      const query = queries.get(candidate.query)!
      examples.push({ query: query.text, fields: candidate.fields, grade: candidate.grade, ...(query.notes ? { notes: query.notes } : {}) })
    }
    byQuery.set(queryId, examples)
    return examples
  }
}

/** One query's examples (fewShotChooser for a single call). */
export function chooseFewShot(input: FewShotInput & { queryId: string }): FewShotExample[] {
  return fewShotChooser(input)(input.queryId)
}
