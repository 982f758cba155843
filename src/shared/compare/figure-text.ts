import type { Comparison } from './comparison'
import { RBO_PERSISTENCE } from './rank-metrics'

/**
 * The comparison's figures as the compare view writes them: a name, the value
 * in a readable form, and one line saying what it means (shown on hover and
 * focus, and read to assistive technology as the figure's description).
 */

export interface FigureText {
  id: 'overlap' | 'jaccard' | 'rbo' | 'tau'
  name: string
  value: string
  explanation: string
}

/** The typographic minus, so a negative figure does not read as a hyphen. */
const MINUS = '\u2212'

/** Three decimals, as the command line prints them, with a real minus sign; "n/a" where there is no value. */
export function decimalText(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return 'n/a'
  const text = value.toFixed(3)
  // -0.000 is nothing worth a sign.
  if (/^-0\.0+$/.test(text)) return text.slice(1)
  return text.startsWith('-') ? `${MINUS}${text.slice(1)}` : text
}

/** The items of the two top-k lists found in both: Kendall's tau is over these. */
export function sharedCount(changes: Comparison['changes']): number {
  return changes.filter((change) => change.rankA !== null && change.rankB !== null).length
}

/**
 * What the figures at depth k cover: how many items each side returned
 * within k. A side that returned fewer than k (all the service has) is
 * taken whole, as the metrics define it; the figures then say so, since
 * "9 of 50" would read as 41 items missing when there were only 9 to share.
 */
export interface Coverage {
  depth: number
  /** Items within the depth on each side. */
  a: number
  b: number
  /** The most items the two can share: the shorter side, at most k. */
  possible: number
  /** "both sides returned only 9", "A returned only 9", "B returned no results"; null when both filled the depth. */
  note: string | null
}

export function coverageOf(result: Pick<Comparison, 'depth' | 'changes'>): Coverage {
  const k = result.depth
  const a = result.changes.filter((change) => change.rankA !== null).length
  const b = result.changes.filter((change) => change.rankB !== null).length
  const returned = (count: number) => (count === 0 ? 'no results' : `only ${count}`)
  let note: string | null = null
  if (a < k && b < k) note = a === b ? `both sides returned ${returned(a)}` : `A returned ${returned(a)}, B ${returned(b)}`
  else if (a < k) note = `A returned ${returned(a)}`
  else if (b < k) note = `B returned ${returned(b)}`
  return { depth: k, a, b, possible: Math.min(k, a, b), note }
}

/** overlap@k's value: "3 of 10", or out of what could be shared when a side fell short: "9 of 9 (both sides returned only 9)". */
export function overlapText(overlap: number, coverage: Coverage): string {
  return coverage.note === null ? `${overlap} of ${coverage.depth}` : `${overlap} of ${coverage.possible} (${coverage.note})`
}

/** What the list-based figures are over when a side fell short of k: "the 9 items each side returned". */
export function overWhat(coverage: Coverage): string {
  const { a, b, depth: k } = coverage
  const items = (count: number) => `${count} item${count === 1 ? '' : 's'}`
  if (a < k && b < k) return a === b ? `the ${items(a)} each side returned` : `the ${items(a)} A returned and the ${b} B returned`
  return a < k ? `the ${items(a)} A returned and B's top ${k}` : `A's top ${k} and the ${items(b)} B returned`
}

export function figureTexts(result: Pick<Comparison, 'depth' | 'figures' | 'changes'>): FigureText[] {
  const figures = result.figures
  if (!figures) return []
  const k = result.depth
  const shared = sharedCount(result.changes)
  const coverage = coverageOf(result)
  const short = coverage.note === null ? '' : ` Computed over ${overWhat(coverage)}.`
  return [
    {
      id: 'overlap',
      name: `Overlap@${k}`,
      value: overlapText(figures.overlap, coverage),
      explanation:
        coverage.note === null
          ? `How many of A's top ${k} are also in B's top ${k}.`
          : `How many of A's top ${k} are also in B's top ${k}: at most ${coverage.possible}, as ${coverage.note}.`,
    },
    {
      id: 'jaccard',
      name: `Jaccard@${k}`,
      value: decimalText(figures.jaccard),
      explanation: `Items in both top ${k}s divided by all items of the two: 1 the same items, 0 none shared.${short}`,
    },
    {
      id: 'rbo',
      name: 'RBO',
      value: decimalText(figures.rbo),
      explanation: `Rank-biased overlap (p = ${RBO_PERSISTENCE}, extrapolated): agreement weighted towards the top ranks; 1 the same ranking, 0 nothing shared.${short}`,
    },
    {
      id: 'tau',
      name: "Kendall's tau",
      value: decimalText(figures.kendallTau),
      explanation:
        figures.kendallTau === null
          ? `Agreement on the order of the items both lists hold, from ${MINUS}1 (reversed) to 1 (same order); n/a, as fewer than two are shared.`
          : `Agreement on the order of the ${shared} items both lists hold, from ${MINUS}1 (reversed) to 1 (same order).`,
    },
  ]
}

/** A side's duration as people read it: whole milliseconds below 10 s, else seconds with one decimal. */
export function durationText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return ''
  return ms < 10_000 ? `${Math.round(ms).toLocaleString('en-US')} ms` : `${(ms / 1000).toFixed(1)} s`
}

/** A side's total: grouped digits, or a dash when the answer gave none. */
export function totalText(total: number | null): string {
  return total === null ? '–' : total.toLocaleString('en-US')
}
