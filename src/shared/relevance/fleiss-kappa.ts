import type { Figure } from './cohen-kappa'

/**
 * Fleiss' kappa over items that each have the same number of raters, as
 * statsmodels' `fleiss_kappa(table, method='fleiss')` computes it. Items are
 * added one at a time (their count of each grade), so a set of 200,000
 * judgments is read in one pass.
 */

export interface FleissTally {
  /** Raters per item: every item added has exactly this many grades. */
  readonly raters: number
  items: number
  /** Σ over items of Pᵢ = (Σ_c nᵢc² − m) / (m(m − 1)). */
  agreement: number
  /** Per place on the scale, how many grades all items got there. */
  readonly totals: Float64Array
}

export function fleissTally(raters: number, size: number): FleissTally {
  return { raters, items: 0, agreement: 0, totals: new Float64Array(size) }
}

/** Adds one item from its count of each grade, which must sum to tally.raters. */
export function addFleissItem(tally: FleissTally, counts: ArrayLike<number>): void {
  const m = tally.raters
  let squares = 0
  for (let c = 0; c < tally.totals.length; c++) {
    const count = counts[c]!
    squares += count * count
    tally.totals[c] = tally.totals[c]! + count
  }
  tally.agreement += (squares - m) / (m * (m - 1))
  tally.items++
}

/** κ = (P̄ − P̄ₑ) / (1 − P̄ₑ), with P̄ the mean of Pᵢ and P̄ₑ = Σ_c p_c², p_c the share of all grades at c. */
export function fleissKappa(tally: FleissTally): Figure {
  if (tally.raters < 2) return { value: null, reason: 'no item was graded by two raters or more' }
  if (tally.items === 0) return { value: null, reason: `no item was graded by exactly ${tally.raters} raters` }
  const all = tally.items * tally.raters
  let chance = 0
  for (const total of tally.totals) chance += (total / all) * (total / all)
  if (chance === 1) return { value: null, reason: 'every grade is the same, so chance alone would agree as well' }
  return { value: (tally.agreement / tally.items - chance) / (1 - chance) }
}
