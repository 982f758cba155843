import type { JudgeCalibration } from '../ipc/judge-contract'
import { cohenKappa, percentAgreement } from './cohen-kappa'
import { aggregateGrade, DEFAULT_AGGREGATE, type Aggregate, type RaterGrade } from './grade-aggregate'
import { addCoincidences, krippendorffAlpha } from './krippendorff-alpha'
import { DEFAULT_SCALE, type Scale } from './query-set'
import { ratersOf, referenceRaters, type Rater } from './raters'

/**
 * How far an LLM judge agrees with a set's people (issue 36, point 5), on
 * the items graded by the judge and by at least one person: quadratic
 * Cohen's kappa and percent agreement of the judge against the people's
 * aggregate grade, Krippendorff's ordinal alpha over the judge and each
 * person as coders, the confusion matrix, and the items where the two differ
 * most, with the model's explanation beside the people's grades (to Settle,
 * or to teach the prompt). docs/METRICS.md ("LLM judge calibration") is the
 * definition. The figures are the agreement module's own (cohen-kappa.ts,
 * krippendorff-alpha.ts), so they equal scikit-learn's and the krippendorff
 * package's as those do.
 *
 * Two linear passes over the judgments with maps (the judge's items first,
 * then the people's grades of those items only): 200,000 judgments take a
 * few tens of milliseconds.
 */

/** The least distance, in places on the scale, between the judge's grade and the people's rounded grade for an item to be listed. */
export const DEFAULT_CALIBRATION_STEPS = 1
/** The most differences listed. */
export const MAX_CALIBRATION_DIFFERENCES = 200

export interface CalibrationSet {
  scale?: Scale | undefined
  queries: readonly { id: string; text: string }[]
  judgments: readonly { query: string; item: string; rater: string; grade: number; explanation?: string | undefined }[]
  raters?: readonly Rater[] | undefined
  settings?: { aggregate?: Aggregate | undefined } | undefined
}

export interface CalibrationOptions {
  /** List items whose judge's grade and people's rounded grade lie this many places apart or more (a whole number, default 1). */
  steps?: number
  /** List at most this many (default 200). */
  limit?: number
  /** Stale grades, when a run or estimate has counted them (else null). */
  stale?: number | null
}

/**
 * The rule the people's grade is made by: the set's own, except
 * `rater:NAME` where NAME is no person (the judge itself, another model),
 * which would give the people no grade at all: then the mean.
 */
export function peopleRule(aggregate: Aggregate | undefined, isReference: (rater: string) => boolean): Aggregate {
  const rule = aggregate ?? DEFAULT_AGGREGATE
  if (!rule.startsWith('rater:')) return rule
  return isReference(rule.slice('rater:'.length)) ? rule : DEFAULT_AGGREGATE
}

/** The scale's grade nearest to `value`; halfway between two, the higher (half up). */
export function roundToScale(value: number, grades: readonly number[]): number {
  let best = grades[0]!
  for (const grade of grades) {
    const distance = Math.abs(value - grade)
    const bestDistance = Math.abs(value - best)
    // A tolerance, so that a mean such as (1 + 2) / 2 is a tie even after float rounding.
    if (distance < bestDistance - 1e-9 || (Math.abs(distance - bestDistance) <= 1e-9 && grade > best)) best = grade
  }
  return best
}

/** Where a value lies on the scale in places: a grade's index, and between two grades the same share of the way (1.5 halfway between the 2nd and 3rd). */
export function placeOnScale(value: number, grades: readonly number[]): number {
  if (value <= grades[0]!) return 0
  for (let index = 1; index < grades.length; index++) {
    const high = grades[index]!
    if (value <= high) {
      const low = grades[index - 1]!
      return index - 1 + (value - low) / (high - low)
    }
  }
  return grades.length - 1
}

interface JudgedItem {
  query: string
  item: string
  judgePlace: number
  judgeGrade: number
  explanation: string | null
  people: RaterGrade[]
  settled: number | null
}

/** The judge's calibration against the set's people; `judge` is its rater name (`llm:NAME`). */
export function judgeCalibration(set: CalibrationSet, judge: string, options: CalibrationOptions = {}): JudgeCalibration {
  const steps = options.steps ?? DEFAULT_CALIBRATION_STEPS
  const limit = options.limit ?? MAX_CALIBRATION_DIFFERENCES
  if (!Number.isInteger(steps) || steps < 1) throw new RangeError(`steps is a whole number of places of at least 1, not ${steps}`)
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit is a whole number of at least 0, not ${limit}`)
  const grades = (set.scale ?? DEFAULT_SCALE).map((step) => step.grade)
  const size = grades.length
  // Each grade's place on the scale, by grade (grades are whole numbers 0–100): no map lookup per judgment.
  const placeOf = new Int8Array(101).fill(-1)
  grades.forEach((grade, index) => (placeOf[grade] = index))
  const placeOfGrade = (grade: number): number => (Number.isInteger(grade) && grade >= 0 && grade <= 100 ? placeOf[grade]! : -1)
  const raters = ratersOf(set)
  const kinds = new Map(raters.map((rater) => [rater.name, rater.kind]))
  const kindOf = (rater: string) => kinds.get(rater)
  // The people, or where no person graded the set, its other raters (raters.ts): the reply says which.
  const reference = referenceRaters(set)
  const rule = peopleRule(set.settings?.aggregate, reference.has)

  // Pass 1: the judge's items, by query then item (no key strings to build).
  const byQuery = new Map<string, Map<string, JudgedItem>>()
  let judged = 0
  for (const judgment of set.judgments) {
    if (judgment.rater !== judge) continue
    const at = placeOfGrade(judgment.grade)
    if (at < 0) continue
    let items = byQuery.get(judgment.query)
    if (!items) byQuery.set(judgment.query, (items = new Map()))
    const known = items.get(judgment.item)
    const explanation = judgment.explanation ?? null
    // A judge who graded an item twice counts with the later grade.
    if (known) Object.assign(known, { judgePlace: at, judgeGrade: judgment.grade, explanation })
    else {
      items.set(judgment.item, { query: judgment.query, item: judgment.item, judgePlace: at, judgeGrade: judgment.grade, explanation, people: [], settled: null })
      judged++
    }
  }

  // Pass 2: the people's grades and the settled grade of those items only.
  let peopleJudgments = 0
  for (const judgment of set.judgments) {
    if (judgment.rater === judge || placeOfGrade(judgment.grade) < 0) continue
    const kind = kindOf(judgment.rater)
    const person = reference.has(judgment.rater)
    if (person) peopleJudgments++
    if (!person && kind !== 'adjudication') continue
    const entry = byQuery.get(judgment.query)?.get(judgment.item)
    if (!entry) continue
    if (!person) {
      entry.settled = judgment.grade
      continue
    }
    const same = entry.people.findIndex((grade) => grade.rater === judgment.rater)
    if (same >= 0) entry.people[same] = { rater: judgment.rater, grade: judgment.grade }
    else entry.people.push({ rater: judgment.rater, grade: judgment.grade })
  }

  const confusion = new Float64Array(size * size)
  const coincidences = new Float64Array(size * size)
  const counts = new Float64Array(size)
  const queryOrder = new Map(set.queries.map((query, index) => [query.id, index]))
  const listed: { entry: JudgedItem; peopleGrade: number; spread: number; order: number }[] = []
  let n = 0
  for (const items of byQuery.values()) {
    for (const entry of items.values()) {
      if (entry.people.length === 0) continue
      // Only people's grades go in: an adjudicated grade is shown as settled, not read as theirs.
      const peopleGrade = aggregateGrade(entry.people, rule, kindOf)
      if (peopleGrade === undefined) continue
      n++
      const rounded = placeOf[roundToScale(peopleGrade, grades)]!
      confusion[rounded * size + entry.judgePlace] = confusion[rounded * size + entry.judgePlace]! + 1
      counts.fill(0)
      counts[entry.judgePlace] = 1
      for (const person of entry.people) counts[placeOf[person.grade]!] = counts[placeOf[person.grade]!]! + 1
      addCoincidences(coincidences, counts, entry.people.length + 1, size)
      if (Math.abs(rounded - entry.judgePlace) >= steps) {
        listed.push({ entry, peopleGrade, spread: Math.abs(placeOnScale(peopleGrade, grades) - entry.judgePlace), order: queryOrder.get(entry.query) ?? Infinity })
      }
    }
  }

  const reasons: JudgeCalibration['reasons'] = {}
  let kappaQuadratic: number | null = null
  let alphaOrdinal: number | null = null
  let agreement: number | null = null
  if (n === 0) {
    const why =
      judged === 0
        ? `the judge ${judge} has graded no item of the set`
        : peopleJudgments === 0
          ? 'no person has graded an item of the set'
          : rule.startsWith('rater:')
            ? `no item is graded by both the judge and ${rule.slice('rater:'.length)} (the set's rule reads that rater's grades only)`
            : 'no item is graded by both the judge and a person'
    reasons.kappaQuadratic = reasons.alphaOrdinal = reasons.agreement = why
  } else {
    const kappa = cohenKappa(confusion, size, 'quadratic')
    kappaQuadratic = kappa.value
    if (kappa.reason !== undefined) reasons.kappaQuadratic = 'the judge and the people gave every item one and the same grade, so chance alone would agree as well'
    const alpha = krippendorffAlpha(coincidences, grades, 'ordinal')
    alphaOrdinal = alpha.value
    if (alpha.reason !== undefined) reasons.alphaOrdinal = alpha.reason
    agreement = percentAgreement(confusion, size).value
  }

  const texts = new Map(set.queries.map((query) => [query.id, query.text]))
  const raterOrder = new Map(raters.map((rater, index) => [rater.name, index]))
  // Widest first; at an equal spread the unsettled first (they are what Settle is for), then the set's query order, then the item.
  listed.sort(
    (a, b) =>
      b.spread - a.spread ||
      Number(a.entry.settled !== null) - Number(b.entry.settled !== null) ||
      a.order - b.order ||
      compareText(a.entry.query, b.entry.query) ||
      compareText(a.entry.item, b.entry.item),
  )
  const differences = listed.slice(0, limit).map(({ entry, peopleGrade, spread }) => ({
    query: entry.query,
    text: texts.get(entry.query) ?? '',
    item: entry.item,
    judgeGrade: entry.judgeGrade,
    explanation: entry.explanation,
    people: [...entry.people].sort((a, b) => (raterOrder.get(a.rater) ?? Infinity) - (raterOrder.get(b.rater) ?? Infinity) || compareText(a.rater, b.rater)),
    peopleGrade,
    spread,
    settled: entry.settled,
  }))

  return {
    judge,
    n,
    kappaQuadratic,
    alphaOrdinal,
    agreement,
    reasons,
    scale: grades,
    confusion: Array.from({ length: size }, (_, row) => Array.from(confusion.subarray(row * size, (row + 1) * size))),
    differences,
    stale: options.stale ?? null,
    reference: { people: reference.people, raters: reference.names },
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

