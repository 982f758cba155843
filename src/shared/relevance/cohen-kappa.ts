/**
 * Cohen's kappa of two raters from their confusion matrix, as scikit-learn's
 * `cohen_kappa_score(a, b, labels=scale, weights=…)` computes it: the weights
 * are the distance between the grades' places on the scale (not their
 * values), so a scale 0, 1, 2, 3 and one 0, 2, 5, 9 weigh alike.
 */

export type KappaWeights = 'none' | 'linear' | 'quadratic'

/** A figure, or null and why it is undefined. */
export type Figure = { value: number; reason?: undefined } | { value: null; reason: string }

/** w(i, j) for places i and j on a scale. */
export function kappaWeight(weights: KappaWeights, i: number, j: number): number {
  if (weights === 'none') return i === j ? 0 : 1
  const distance = Math.abs(i - j)
  return weights === 'linear' ? distance : distance * distance
}

/**
 * κ = 1 − Σ w·O / Σ w·E, where O[i][j] counts the items rater a graded at
 * place i and rater b at place j (row-major, size × size) and
 * E[i][j] = rowᵢ · colⱼ / n is what chance alone would give.
 */
export function cohenKappa(confusion: ArrayLike<number>, size: number, weights: KappaWeights): Figure {
  const rows = new Float64Array(size)
  const cols = new Float64Array(size)
  let n = 0
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      const count = confusion[i * size + j]!
      rows[i] = rows[i]! + count
      cols[j] = cols[j]! + count
      n += count
    }
  }
  if (n === 0) return { value: null, reason: 'no item was graded by both raters' }
  let observed = 0
  let expected = 0
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      const weight = kappaWeight(weights, i, j)
      if (weight === 0) continue
      observed += weight * confusion[i * size + j]!
      expected += (weight * rows[i]! * cols[j]!) / n
    }
  }
  // Chance disagreement is 0 only when both raters gave every item one and the same grade.
  if (expected === 0) return { value: null, reason: 'both raters gave every item the same one grade, so chance alone would agree as well' }
  return { value: 1 - observed / expected }
}

/** The share of items both raters graded alike: the confusion matrix's diagonal over its total. */
export function percentAgreement(confusion: ArrayLike<number>, size: number): Figure {
  let n = 0
  let same = 0
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) n += confusion[i * size + j]!
    same += confusion[i * size + i]!
  }
  return n === 0 ? { value: null, reason: 'no item was graded by both raters' } : { value: same / n }
}
