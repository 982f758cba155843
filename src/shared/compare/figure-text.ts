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

export function figureTexts(result: Pick<Comparison, 'depth' | 'figures' | 'changes'>): FigureText[] {
  const figures = result.figures
  if (!figures) return []
  const k = result.depth
  const shared = sharedCount(result.changes)
  return [
    {
      id: 'overlap',
      name: `Overlap@${k}`,
      value: `${figures.overlap} of ${k}`,
      explanation: `How many of A's top ${k} are also in B's top ${k}.`,
    },
    {
      id: 'jaccard',
      name: `Jaccard@${k}`,
      value: decimalText(figures.jaccard),
      explanation: `Items in both top ${k}s divided by all items of the two: 1 the same items, 0 none shared.`,
    },
    {
      id: 'rbo',
      name: 'RBO',
      value: decimalText(figures.rbo),
      explanation: `Rank-biased overlap (p = ${RBO_PERSISTENCE}, extrapolated): agreement weighted towards the top ranks; 1 the same ranking, 0 nothing shared.`,
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
