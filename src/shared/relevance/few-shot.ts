import { seededRandom } from '../seeded-random'
import { aggregateGrade, DEFAULT_AGGREGATE, type Aggregate, type RaterGrade } from './grade-aggregate'
import type { FewShotExample } from './llm-judge'
import type { QuerySet, Scale } from './query-set'
import { raterKinds, referenceRaters } from './raters'

/**
 * Few-shot from people (issue 36, point 5): a judge may take N examples of
 * the set's people-graded items, with the people's grade and the query's
 * notes, into its prompt. They are drawn with a fixed seed, so the same set
 * gives the same prompt (and prompt digest) run after run, and never from
 * the query being judged, so an example never gives that query's answer away.
 */

export interface FewShotInput {
  set: Pick<QuerySet, 'queries' | 'judgments' | 'raters' | 'settings'>
  scale: Scale
  /** How many examples (the judge's fewShot). */
  count: number
  /** The judge's fewShotSeed. */
  seed: number
  /** Items whose content is known (fetched in this run), by query id then item: only these can be shown. */
  contents: ReadonlyMap<string, ReadonlyMap<string, Record<string, unknown>>>
}

interface Candidate {
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
 * mean), in a fixed order: by query id, then item, so the file's order of
 * lines (which a merge may change) never changes the draw.
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
  return out.sort((x, y) => (x.query < y.query ? -1 : x.query > y.query ? 1 : x.item < y.item ? -1 : x.item > y.item ? 1 : 0))
}

/**
 * A chooser for one run: the people-graded items with known content,
 * shuffled once from the seed; each query's examples are the first `count`
 * of that order from other queries. Made once a run, so each query costs
 * its `count` examples (and the items of its own it skips), not the set.
 */
export function fewShotChooser(input: FewShotInput): (queryId: string) => FewShotExample[] {
  const count = Math.max(0, Math.floor(input.count))
  if (count === 0) return () => []
  const queries = new Map(input.set.queries.map((query) => [query.id, query]))
  const pool = peopleGraded(input.set, input.scale)
  // Fisher–Yates from the fixed seed, over the fixed order: the same draw every run.
  const random = seededRandom(input.seed)
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[pool[i], pool[j]] = [pool[j]!, pool[i]!]
  }
  const shown: (Candidate & { fields: Record<string, unknown> })[] = []
  for (const candidate of pool) {
    const fields = input.contents.get(candidate.query)?.get(candidate.item)
    if (fields && queries.has(candidate.query)) shown.push({ ...candidate, fields })
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
