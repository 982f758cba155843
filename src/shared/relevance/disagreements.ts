import type { RaterKind } from './raters'

/**
 * The items raters read differently (issue 35, point 4): each (query, item)
 * whose raters' grades lie `steps` or more places apart on the set's scale,
 * to be settled by an adjudicated grade (a rater of kind adjudication, which
 * the metrics then use whatever the set's aggregate). Steps are places on the
 * scale, not grade differences: on a scale 0, 1, 3, 7 the grades 1 and 7 are
 * two steps apart. An adjudicator's grade is not one of the grades compared;
 * an item it settled is listed only when asked for.
 */

export const DEFAULT_DISAGREEMENT_STEPS = 2
export const DEFAULT_DISAGREEMENT_LIMIT = 200

export interface Disagreement {
  query: string
  /** The query's text as the set holds it. */
  text: string
  item: string
  /** Each rater's grade, in the raters' order. */
  grades: { rater: string; grade: number }[]
  /** Places on the scale between the lowest grade and the highest. */
  spread: number
  /** The adjudicated grade; null while unsettled. */
  settled: number | null
}

export interface Disagreements {
  /** The steps asked for: rows differ by at least this many. */
  steps: number
  /** Every item listed that differs so: the unsettled, and the settled too when asked (the rows are the first `limit` of them by spread). */
  total: number
  /** Items that differ so and are settled (listed only with `settled: true`). */
  settled: number
  rows: Disagreement[]
}

export interface DisagreementInput {
  /** The set's grades, lowest first. */
  scale: readonly number[]
  /** The set's queries, in its order (the order rows of equal spread keep). */
  queries: readonly { id: string; text: string }[]
  judgments: readonly { query: string; item: string; rater: string; grade: number }[]
  /** The set's raters with their kind (ratersOf): whose grades settle an item. A rater not listed is a person. */
  raters?: readonly { name: string; kind: RaterKind }[]
  /** Compare these raters only (all but the adjudicators when absent). */
  only?: readonly string[]
  /** The least spread listed, in places on the scale (default 2). */
  steps?: number
  /** How many rows at most, the widest spreads first (default 200). */
  limit?: number
  /** List settled items too. */
  settled?: boolean
}

interface Collected {
  query: string
  item: string
  /** The lowest and highest place on the scale the compared raters gave; how many graded. */
  low: number
  high: number
  count: number
  settled: number | null
  /** Its row, once listed. */
  row: Disagreement | null
}

/** The items whose raters differ by `steps` or more places on the scale, widest first, bounded. */
export function disagreements(input: DisagreementInput): Disagreements {
  const steps = input.steps ?? DEFAULT_DISAGREEMENT_STEPS
  const limit = input.limit ?? DEFAULT_DISAGREEMENT_LIMIT
  const place = new Map(input.scale.map((grade, index) => [grade, index]))
  const adjudicators = new Set((input.raters ?? []).filter((rater) => rater.kind === 'adjudication').map((rater) => rater.name))
  const only = input.only ? new Set(input.only) : null
  const raterOrder = new Map((input.raters ?? []).map((rater, index) => [rater.name, index]))
  const queryOrder = new Map(input.queries.map((query, index) => [query.id, index]))
  const texts = new Map(input.queries.map((query) => [query.id, query.text]))

  // Pass 1: each item's lowest and highest place and its settled grade; no grade lists yet (most items are not listed).
  // Items by query, then by item: no key strings to build for 200,000 judgments.
  const byQuery = new Map<string, Map<string, Collected>>()
  const entryOf: (Collected | null)[] = new Array<Collected | null>(input.judgments.length).fill(null)
  input.judgments.forEach((judgment, index) => {
    const at = place.get(judgment.grade)
    if (at === undefined) return
    const adjudicated = adjudicators.has(judgment.rater)
    if (!adjudicated && only && !only.has(judgment.rater)) return
    let items = byQuery.get(judgment.query)
    if (!items) byQuery.set(judgment.query, (items = new Map()))
    let entry = items.get(judgment.item)
    if (!entry) items.set(judgment.item, (entry = { query: judgment.query, item: judgment.item, low: Infinity, high: -Infinity, count: 0, settled: null, row: null }))
    if (adjudicated) {
      entry.settled = judgment.grade
      return
    }
    entry.low = Math.min(entry.low, at)
    entry.high = Math.max(entry.high, at)
    entry.count++
    entryOf[index] = entry
  })

  const found: Collected[] = []
  let total = 0
  let settledCount = 0
  for (const items of byQuery.values()) {
    for (const entry of items.values()) {
      if (entry.count < 2 || entry.high - entry.low < steps) continue
      if (entry.settled !== null) settledCount++
      if (entry.settled !== null && !input.settled) continue
      total++
      found.push(entry)
    }
  }

  // Those still to settle first (past the limit a settled row never hides one), widest first; then the set's query order, then the item.
  found.sort(
    (a, b) =>
      Number(a.settled !== null) - Number(b.settled !== null) ||
      b.high - b.low - (a.high - a.low) ||
      (queryOrder.get(a.query) ?? Infinity) - (queryOrder.get(b.query) ?? Infinity) ||
      (a.query < b.query ? -1 : a.query > b.query ? 1 : 0) ||
      (a.item < b.item ? -1 : a.item > b.item ? 1 : 0),
  )
  const rows = found.slice(0, Math.max(0, limit)).map((entry) => {
    entry.row = { query: entry.query, text: texts.get(entry.query) ?? '', item: entry.item, grades: [], spread: entry.high - entry.low, settled: entry.settled }
    return entry.row
  })

  // Pass 2: the grades of the rows listed only.
  input.judgments.forEach((judgment, index) => {
    const row = entryOf[index]?.row
    if (row) row.grades.push({ rater: judgment.rater, grade: judgment.grade })
  })
  // A rater the set lists keeps its place; others follow by name.
  for (const row of rows) {
    row.grades.sort((a, b) => (raterOrder.get(a.rater) ?? Infinity) - (raterOrder.get(b.rater) ?? Infinity) || (a.rater < b.rater ? -1 : a.rater > b.rater ? 1 : 0))
  }
  return { steps, total, settled: settledCount, rows }
}
