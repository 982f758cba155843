import type { Figure } from './cohen-kappa'

/**
 * Krippendorff's alpha (Krippendorff 2011) as the `krippendorff` Python
 * package computes it (pln-fing-udelar/fast-krippendorff): a coincidence
 * matrix summed over the items, one item at a time, then observed against
 * expected disagreement under a distance for the level of measurement.
 */

export type AlphaLevel = 'nominal' | 'ordinal' | 'interval'

/**
 * Adds one item to a coincidence matrix (size × size, row-major) from its
 * count of each grade, m of them in all: o[c][k] += (n_c·n_k − [c = k]·n_c) / (m − 1).
 * An item with fewer than two grades adds nothing (it has no pair to compare).
 */
export function addCoincidences(coincidences: Float64Array, counts: ArrayLike<number>, m: number, size: number): void {
  if (m < 2) return
  for (let c = 0; c < size; c++) {
    const nc = counts[c]!
    if (nc === 0) continue
    for (let k = 0; k < size; k++) {
      const nk = counts[k]!
      if (nk === 0) continue
      coincidences[c * size + k] = coincidences[c * size + k]! + (c === k ? nc * nk - nc : nc * nk) / (m - 1)
    }
  }
}

/**
 * δ²(c, k) between the grades at places c and k: nominal 1 when they differ;
 * ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)², n_g the coincidence matrix's
 * column sums; interval (v_c − v_k)², v the grades' values.
 */
export function alphaDistance(level: AlphaLevel, c: number, k: number, values: readonly number[], marginals: ArrayLike<number>): number {
  if (level === 'nominal') return c === k ? 0 : 1
  if (level === 'interval') return (values[c]! - values[k]!) ** 2
  const low = Math.min(c, k)
  const high = Math.max(c, k)
  let between = 0
  for (let g = low; g <= high; g++) between += marginals[g]!
  return (between - (marginals[low]! + marginals[high]!) / 2) ** 2
}

/** α = 1 − Σ o·δ² / Σ e·δ², with e[c][k] = (n_c·n_k − [c = k]·n_c) / (n − 1) the coincidences chance would give. */
export function krippendorffAlpha(coincidences: Float64Array, values: readonly number[], level: AlphaLevel): Figure {
  const size = values.length
  const marginals = new Float64Array(size)
  let n = 0
  for (let c = 0; c < size; c++) {
    for (let k = 0; k < size; k++) marginals[k] = marginals[k]! + coincidences[c * size + k]!
  }
  for (const marginal of marginals) n += marginal
  if (n === 0) return { value: null, reason: 'no item was graded by two raters or more' }
  let observed = 0
  let expected = 0
  for (let c = 0; c < size; c++) {
    for (let k = 0; k < size; k++) {
      const distance = alphaDistance(level, c, k, values, marginals)
      if (distance === 0) continue
      observed += coincidences[c * size + k]! * distance
      expected += ((marginals[c]! * marginals[k]! - (c === k ? marginals[c]! : 0)) / (n - 1)) * distance
    }
  }
  if (expected === 0) return { value: null, reason: 'every grade is the same, so there is no disagreement to expect' }
  return { value: 1 - observed / expected }
}
