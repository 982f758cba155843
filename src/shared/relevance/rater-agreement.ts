import { z } from 'zod'
import { GradeSchema, RatedJudgmentSchema } from './query-set'
import { RaterSchema, type RaterKind } from './raters'
import { cohenKappa, percentAgreement, type Figure } from './cohen-kappa'
import { addFleissItem, fleissKappa, fleissTally, type FleissTally } from './fleiss-kappa'
import { addCoincidences, krippendorffAlpha } from './krippendorff-alpha'

/**
 * How far a set's raters agree (issue 35, point 3): per pair of raters,
 * percent agreement and Cohen's kappa; over all raters, Fleiss' kappa and
 * Krippendorff's alpha; per query, its own alpha. The figures and the
 * references each matches are defined in docs/METRICS.md.
 *
 * One pass puts the judgments into items (query, item) by counting sort, and
 * one pass over the items fills every pair's confusion matrix, the
 * coincidence matrices and the Fleiss tallies: 200,000 judgments by 5 raters
 * take a few tens of milliseconds.
 */

export const AgreementInputSchema = z
  .object({
    /** The set's grades, lowest first (its scale's `grade`s). */
    scale: z
      .array(GradeSchema)
      .min(2)
      .max(11)
      .refine((grades) => grades.every((grade, index) => index === 0 || grade > grades[index - 1]!), 'grades go up one step after another'),
    judgments: z.array(RatedJudgmentSchema),
    /** The set's raters, in the order the report lists them; a rater the judgments name and this omits follows, kind null. */
    raters: z.array(RaterSchema).default(() => []),
  })
  .strict()
  .superRefine((input, context) => {
    const grades = new Set(input.scale)
    const index = input.judgments.findIndex((judgment) => !grades.has(judgment.grade))
    if (index >= 0) {
      context.addIssue({ code: 'custom', path: ['judgments', index, 'grade'], message: `${input.judgments[index]!.grade} is not a grade of the scale (${input.scale.join(', ')})` })
    }
  })

export type AgreementInput = z.input<typeof AgreementInputSchema>

export interface RaterJudgments {
  rater: string
  kind: RaterKind | null
  /** Items (query, item) the rater graded. */
  judgments: number
}

export interface PairAgreement {
  a: string
  b: string
  /** Items both graded. */
  n: number
  /** Share of those both graded alike, 0..1. */
  agreement: number | null
  kappa: number | null
  kappaLinear: number | null
  kappaQuadratic: number | null
  /** Why a figure is null, by its name (printed on stderr, not part of `--json`'s figures). */
  reasons: Partial<Record<'agreement' | 'kappa' | 'kappaLinear' | 'kappaQuadratic', string>>
  /** Rows a's grades, columns b's, in the scale's order. */
  confusion: number[][]
}

export interface AgreementReport {
  raters: RaterJudgments[]
  pairs: PairAgreement[]
  fleiss: { n: number; raters: number | null; kappa: number | null; reason?: string }
  alpha: {
    n: number
    nominal: number | null
    ordinal: number | null
    interval: number | null
    reasons: Partial<Record<'nominal' | 'ordinal' | 'interval', string>>
  }
  queries: { id: string; n: number; alpha: number | null; reason?: string }[]
}

const value = (figure: Figure): number | null => figure.value

/**
 * The agreement figures of a set's judgments. A judgment whose grade is not
 * on the scale is left out (AgreementInputSchema names it); a rater who
 * graded one item twice for a query counts with the later grade.
 */
export function raterAgreement(input: { scale: readonly number[]; judgments: readonly { query: string; item: string; rater: string; grade: number }[]; raters?: readonly { name: string; kind: RaterKind }[] }): AgreementReport {
  const size = input.scale.length
  const place = new Map(input.scale.map((grade, index) => [grade, index]))

  // Raters: the listed ones first, in their order, then the others as they come.
  const raterIndex = new Map<string, number>()
  const raterNames: string[] = []
  const kinds: (RaterKind | null)[] = []
  const raterOf = (name: string, kind: RaterKind | null): number => {
    let index = raterIndex.get(name)
    if (index === undefined) {
      raterIndex.set(name, (index = raterNames.length))
      raterNames.push(name)
      kinds.push(kind)
    }
    return index
  }
  for (const rater of input.raters ?? []) raterOf(rater.name, rater.kind)

  // Pass 1: each judgment's item (query, item), rater and place on the scale.
  const total = input.judgments.length
  const judgmentItem = new Int32Array(total)
  const judgmentRater = new Int32Array(total)
  const judgmentPlace = new Int8Array(total)
  const itemsByQuery = new Map<string, Map<string, number>>()
  const queryIds: string[] = []
  const itemQuery: number[] = []
  const queryIndex = new Map<string, number>()
  let kept = 0
  for (const judgment of input.judgments) {
    const at = place.get(judgment.grade)
    if (at === undefined) continue
    let items = itemsByQuery.get(judgment.query)
    if (!items) {
      itemsByQuery.set(judgment.query, (items = new Map()))
      queryIndex.set(judgment.query, queryIds.length)
      queryIds.push(judgment.query)
    }
    let item = items.get(judgment.item)
    if (item === undefined) {
      items.set(judgment.item, (item = itemQuery.length))
      itemQuery.push(queryIndex.get(judgment.query)!)
    }
    judgmentItem[kept] = item
    judgmentRater[kept] = raterOf(judgment.rater, null)
    judgmentPlace[kept] = at
    kept++
  }

  // Counting sort by item, keeping the judgments' order within an item.
  const itemCount = itemQuery.length
  const start = new Int32Array(itemCount + 1)
  for (let j = 0; j < kept; j++) start[judgmentItem[j]! + 1] = start[judgmentItem[j]! + 1]! + 1
  for (let i = 0; i < itemCount; i++) start[i + 1] = start[i + 1]! + start[i]!
  const fill = start.slice(0, itemCount)
  const sorted = new Int32Array(kept)
  for (let j = 0; j < kept; j++) {
    const item = judgmentItem[j]!
    sorted[fill[item]!] = j
    fill[item] = fill[item]! + 1
  }

  const raterCount = raterNames.length
  const pairIndex = new Int32Array(raterCount * raterCount)
  let pairCount = 0
  for (let a = 0; a < raterCount; a++) for (let b = a + 1; b < raterCount; b++) pairIndex[a * raterCount + b] = pairCount++
  const confusion = new Float64Array(pairCount * size * size)
  const judged = new Float64Array(raterCount)
  const coincidences = new Float64Array(size * size)
  const queryCoincidences = queryIds.map(() => new Float64Array(size * size))
  const queryItems = new Int32Array(queryIds.length)
  let alphaItems = 0
  const tallies = new Map<number, FleissTally>()

  // Pass 2: one item at a time, its raters' places (a rater's later grade wins).
  const seenAt = new Int32Array(raterCount).fill(-1)
  const itemRaters = new Int32Array(raterCount)
  const itemPlaces = new Int32Array(raterCount)
  const counts = new Float64Array(size)
  for (let item = 0; item < itemCount; item++) {
    let m = 0
    for (let s = start[item + 1]! - 1; s >= start[item]!; s--) {
      const j = sorted[s]!
      const rater = judgmentRater[j]!
      if (seenAt[rater] === item) continue
      seenAt[rater] = item
      itemRaters[m] = rater
      itemPlaces[m] = judgmentPlace[j]!
      m++
    }
    counts.fill(0)
    for (let r = 0; r < m; r++) {
      judged[itemRaters[r]!] = judged[itemRaters[r]!]! + 1
      counts[itemPlaces[r]!] = counts[itemPlaces[r]!]! + 1
    }
    if (m < 2) continue
    for (let r = 0; r < m; r++) {
      for (let q = r + 1; q < m; q++) {
        // Rows are the rater listed first.
        const first = itemRaters[r]! < itemRaters[q]! ? r : q
        const second = first === r ? q : r
        const pair = pairIndex[itemRaters[first]! * raterCount + itemRaters[second]!]!
        const cell = pair * size * size + itemPlaces[first]! * size + itemPlaces[second]!
        confusion[cell] = confusion[cell]! + 1
      }
    }
    addCoincidences(coincidences, counts, m, size)
    addCoincidences(queryCoincidences[itemQuery[item]!]!, counts, m, size)
    alphaItems++
    queryItems[itemQuery[item]!] = queryItems[itemQuery[item]!]! + 1
    let tally = tallies.get(m)
    if (!tally) tallies.set(m, (tally = fleissTally(m, size)))
    addFleissItem(tally, counts)
  }

  const raters = raterNames.map((rater, index) => ({ rater, kind: kinds[index]!, judgments: judged[index]! }))
  // A rater the set lists who graded nothing does not make a second rater.
  const active = raters.filter((rater) => rater.judgments > 0)
  const fewer = active.length < 2 ? `fewer than two raters (${active.length === 0 ? 'none' : `only ${active[0]!.rater}`})` : undefined

  const pairs: PairAgreement[] = []
  for (let a = 0; a < raterCount; a++) {
    for (let b = a + 1; b < raterCount; b++) {
      const matrix = confusion.subarray(pairIndex[a * raterCount + b]! * size * size, (pairIndex[a * raterCount + b]! + 1) * size * size)
      const figures = { agreement: percentAgreement(matrix, size), kappa: cohenKappa(matrix, size, 'none'), kappaLinear: cohenKappa(matrix, size, 'linear'), kappaQuadratic: cohenKappa(matrix, size, 'quadratic') }
      const reasons: PairAgreement['reasons'] = {}
      for (const [name, figure] of Object.entries(figures) as [keyof typeof figures, Figure][]) if (figure.reason) reasons[name] = figure.reason
      let n = 0
      for (const count of matrix) n += count
      pairs.push({
        a: raterNames[a]!,
        b: raterNames[b]!,
        n,
        agreement: value(figures.agreement),
        kappa: value(figures.kappa),
        kappaLinear: value(figures.kappaLinear),
        kappaQuadratic: value(figures.kappaQuadratic),
        reasons,
        confusion: Array.from({ length: size }, (_, row) => Array.from(matrix.subarray(row * size, (row + 1) * size))),
      })
    }
  }

  // Fleiss: the most common number of raters per item among items with two or more (ties to the larger).
  let chosen: FleissTally | undefined
  for (const tally of tallies.values()) if (!chosen || tally.items > chosen.items || (tally.items === chosen.items && tally.raters > chosen.raters)) chosen = tally
  const fleissFigure: Figure = fewer ? { value: null, reason: fewer } : chosen ? fleissKappa(chosen) : { value: null, reason: 'no item was graded by two raters or more' }
  const fleiss = { n: chosen?.items ?? 0, raters: chosen?.raters ?? null, kappa: fleissFigure.value, ...(fleissFigure.reason ? { reason: fleissFigure.reason } : {}) }

  const alphaFigure = (matrix: Float64Array, level: 'nominal' | 'ordinal' | 'interval'): Figure => (fewer ? { value: null, reason: fewer } : krippendorffAlpha(matrix, input.scale, level))
  const levels = { nominal: alphaFigure(coincidences, 'nominal'), ordinal: alphaFigure(coincidences, 'ordinal'), interval: alphaFigure(coincidences, 'interval') }
  const alphaReasons: AgreementReport['alpha']['reasons'] = {}
  for (const [name, figure] of Object.entries(levels) as [keyof typeof levels, Figure][]) if (figure.reason) alphaReasons[name] = figure.reason

  const queries = queryIds.map((id, index) => {
    const figure = alphaFigure(queryCoincidences[index]!, 'ordinal')
    return { id, n: queryItems[index]!, alpha: figure.value, ...(figure.reason ? { reason: figure.reason } : {}) }
  })

  return {
    raters,
    pairs,
    fleiss,
    alpha: { n: alphaItems, nominal: levels.nominal.value, ordinal: levels.ordinal.value, interval: levels.interval.value, reasons: alphaReasons },
    queries,
  }
}
