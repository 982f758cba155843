import { z } from 'zod'

/**
 * Figures that say how two rankings of the same query differ: the compare
 * view, test-case snapshots and `query-explorer compare` all use these. A
 * ranking is a list of item keys, best first; a key that occurs twice counts
 * at its first place only (a result page never repeats an item, but a
 * hand-edited snapshot might).
 */

/** The keys in order with repeats removed. */
function distinct(list: readonly string[]): string[] {
  return [...new Set(list)]
}

/** overlap@k = |A₁..ₖ ∩ B₁..ₖ|: how many of A's top k are also in B's top k. */
export function overlapAt(a: readonly string[], b: readonly string[], k: number): number {
  const top = new Set(distinct(a).slice(0, k))
  return distinct(b)
    .slice(0, k)
    .filter((key) => top.has(key)).length
}

/** Jaccard@k = |A₁..ₖ ∩ B₁..ₖ| / |A₁..ₖ ∪ B₁..ₖ|; 1 when both are empty (nothing differs). */
export function jaccardAt(a: readonly string[], b: readonly string[], k: number): number {
  const left = distinct(a).slice(0, k)
  const right = distinct(b).slice(0, k)
  const union = new Set([...left, ...right]).size
  return union === 0 ? 1 : overlapAt(left, right, k) / union
}

/**
 * Rank-biased overlap, extrapolated (Webber, Moffat & Zobel 2010, eq. 32),
 * for lists of possibly different lengths s ≤ l, seen to those depths:
 *
 *   RBO_ext = (1−p)/p · ( Σ_{d=1..l} X_d/d · p^d + Σ_{d=s+1..l} X_s(d−s)/(s·d) · p^d )
 *             + ( (X_l − X_s)/l + X_s/s ) · p^l
 *
 * where X_d is the number of keys the two lists share within depth d (for
 * d > s, the shorter list is taken whole). p is the persistence: with
 * p = 0.9 the top 10 carry about 86% of the weight. 1 for identical lists,
 * 0 for disjoint ones, symmetric. Two empty lists agree (1); an empty list
 * against a non-empty one shares nothing (0).
 */
export function rankBiasedOverlap(a: readonly string[], b: readonly string[], p = 0.9): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`RBO persistence p must be between 0 and 1 (exclusive); it is ${p}`)
  const [short, long] = distinct(a).length <= distinct(b).length ? [distinct(a), distinct(b)] : [distinct(b), distinct(a)]
  const s = short.length
  const l = long.length
  if (l === 0) return 1
  if (s === 0) return 0
  const seenShort = new Set<string>()
  const seenLong = new Set<string>()
  let overlap = 0
  const x: number[] = [0] // x[d] = X_d
  for (let d = 1; d <= l; d++) {
    if (d <= s) {
      const fromShort = short[d - 1]!
      if (seenLong.has(fromShort)) overlap++
      seenShort.add(fromShort)
    }
    const fromLong = long[d - 1]!
    if (seenShort.has(fromLong)) overlap++
    seenLong.add(fromLong)
    x.push(overlap)
  }
  const xs = x[s]!
  const xl = x[l]!
  let sum = 0
  for (let d = 1; d <= l; d++) sum += (x[d]! / d) * p ** d
  for (let d = s + 1; d <= l; d++) sum += ((xs * (d - s)) / (s * d)) * p ** d
  const value = ((1 - p) / p) * sum + ((xl - xs) / l + xs / s) * p ** l
  // Floating-point sums of identical lists land a hair off 1.
  return Math.min(1, Math.max(0, value))
}

/**
 * Kendall's tau (τ-a) over the keys both lists hold, comparing their order:
 * (concordant − discordant) / (n(n−1)/2), in [−1, 1]. Null when fewer than
 * two keys are shared, where there is no order to compare.
 */
export function kendallTau(a: readonly string[], b: readonly string[]): number | null {
  const rankInB = new Map(distinct(b).map((key, index) => [key, index]))
  const shared = distinct(a).filter((key) => rankInB.has(key))
  const n = shared.length
  if (n < 2) return null
  let score = 0
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      // In A, i is above j; concordant when B agrees.
      score += rankInB.get(shared[i]!)! < rankInB.get(shared[j]!)! ? 1 : -1
    }
  }
  return score / ((n * (n - 1)) / 2)
}

/** One row of a rank diff: an item's rank on each side (1-based, null when absent within the depth). */
export const RankChangeSchema = z.object({
  key: z.string(),
  rankA: z.number().int().nullable(),
  rankB: z.number().int().nullable(),
  /**
   * up/down: it moved by `by` places from A to B (up = a better rank in B);
   * same; new: only in B; gone: only in A.
   */
  move: z.union([z.object({ kind: z.enum(['up', 'down']), by: z.number().int() }), z.object({ kind: z.enum(['same', 'new', 'gone']) })]),
})

export type RankChange = z.infer<typeof RankChangeSchema>

/**
 * Every key in either top k, in A's order first, then the keys new in B in
 * B's order: the table a person reads top to bottom.
 */
export function rankChanges(a: readonly string[], b: readonly string[], k: number): RankChange[] {
  const left = distinct(a).slice(0, k)
  const right = distinct(b).slice(0, k)
  const rankB = new Map(right.map((key, index) => [key, index + 1]))
  const rankA = new Map(left.map((key, index) => [key, index + 1]))
  const rows: RankChange[] = left.map((key, index) => {
    const inB = rankB.get(key) ?? null
    const inA = index + 1
    if (inB === null) return { key, rankA: inA, rankB: null, move: { kind: 'gone' } }
    if (inB === inA) return { key, rankA: inA, rankB: inB, move: { kind: 'same' } }
    return { key, rankA: inA, rankB: inB, move: inB < inA ? { kind: 'up', by: inA - inB } : { kind: 'down', by: inB - inA } }
  })
  for (const [index, key] of right.entries()) {
    if (!rankA.has(key)) rows.push({ key, rankA: null, rankB: index + 1, move: { kind: 'new' } })
  }
  return rows
}

/**
 * A move as a rank-diff table writes it: ↑3, ↓5, =, and for items on one
 * side only the words given (between A and B: new in B, gone from B).
 */
export function moveText(move: RankChange['move'], oneSided: { new: string; gone: string } = { new: 'new in B', gone: 'gone from B' }): string {
  switch (move.kind) {
    case 'up':
      return `↑${move.by}`
    case 'down':
      return `↓${move.by}`
    case 'same':
      return '='
    case 'new':
      return oneSided.new
    case 'gone':
      return oneSided.gone
  }
}

/** The figures of one comparison at depth k. */
export interface RankComparison {
  depth: number
  overlap: number
  jaccard: number
  rbo: number
  /** Null when the two top-k lists share fewer than two items. */
  kendallTau: number | null
  changes: RankChange[]
}

export const RBO_PERSISTENCE = 0.9

export function compareRankings(a: readonly string[], b: readonly string[], depth: number): RankComparison {
  const left = distinct(a).slice(0, depth)
  const right = distinct(b).slice(0, depth)
  return {
    depth,
    overlap: overlapAt(left, right, depth),
    jaccard: jaccardAt(left, right, depth),
    rbo: rankBiasedOverlap(left, right, RBO_PERSISTENCE),
    kendallTau: kendallTau(left, right),
    changes: rankChanges(left, right, depth),
  }
}
