/**
 * Holm's step-down adjustment (Holm 1979): with m p-values sorted
 * p_(1) ≤ … ≤ p_(m), the adjusted p_(i) is max over j ≤ i of
 * min(1, (m − j + 1) · p_(j)). Rejecting where the adjusted value is below α
 * keeps the chance of any false rejection among the m at most α, whatever
 * their dependence, and rejects at least what Bonferroni (m · p) rejects.
 * The adjusted values come back in the input order; equal p-values get
 * equal adjusted values, whichever way they are sorted.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length
  for (const p of pValues) if (!(p >= 0 && p <= 1)) throw new RangeError(`a p-value is a number from 0 to 1, not ${p}`)
  const order = pValues.map((_, index) => index).sort((a, b) => pValues[a]! - pValues[b]! || a - b)
  const adjusted = new Array<number>(m)
  let running = 0
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[index]!))
    adjusted[index] = running
  })
  return adjusted
}
