import { seededRandom } from '../seeded-random'
import { DEFAULT_SEED } from './paired-randomization'

/**
 * The percentile bootstrap interval of a mean (Efron & Tibshirani 1993,
 * ch. 13): draw n of the n deltas with replacement, `resamples` times; take
 * each draw's mean; sort them; the interval runs from their (1 − level)/2
 * quantile to their 1 − (1 − level)/2 quantile. docs/METRICS.md
 * ("Experiments") is the definition.
 *
 * Quantile rule: Hyndman & Fan's definition 7 (R's and numpy's default):
 * for sorted means m_0 ≤ … ≤ m_{B−1}, the q quantile is
 * m_⌊h⌋ + (h − ⌊h⌋)(m_⌊h⌋+1 − m_⌊h⌋) with h = (B − 1)·q.
 *
 * Every resampled mean lies between the smallest and the largest delta, so
 * the interval is clamped to them: when all deltas are c it is exactly
 * [c, c], whatever the rounding of the sums. No delta: null.
 */

export interface BootstrapOptions {
  /** Draws; default 10,000. */
  resamples?: number
  /** The generator's seed (seeded-random.ts); default 20261126, as the randomization test's. */
  seed?: number
  /** The interval's coverage, between 0 and 1; default 0.95. */
  level?: number
}

export const DEFAULT_RESAMPLES = 10_000
export const DEFAULT_LEVEL = 0.95

export function bootstrapInterval(deltas: readonly number[], options: BootstrapOptions = {}): [number, number] | null {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  const level = options.level ?? DEFAULT_LEVEL
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples is a whole number of at least 1, not ${resamples}`)
  if (!(level > 0 && level < 1)) throw new RangeError(`level is a number between 0 and 1, not ${level}`)
  const n = deltas.length
  if (n === 0) return null
  const values = Float64Array.from(deltas)
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < n; i++) {
    const value = values[i]!
    if (!Number.isFinite(value)) throw new RangeError(`a delta is not a finite number: ${value}`)
    if (value < min) min = value
    if (value > max) max = value
  }
  if (min === max) return [min, max]
  const seed = options.seed ?? DEFAULT_SEED
  const means = new Float64Array(resamples)
  const drawn = resampleIndices(n, resamples, seed)
  if (drawn) {
    for (let draw = 0, at = 0; draw < resamples; draw++) {
      let sum = 0
      for (let i = 0; i < n; i++) sum += values[drawn[at++]!]!
      means[draw] = sum / n
    }
  } else {
    const random = seededRandom(seed)
    for (let draw = 0; draw < resamples; draw++) {
      let sum = 0
      for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)]!
      means[draw] = sum / n
    }
  }
  means.sort()
  const tail = (1 - level) / 2
  const clamp = (value: number) => Math.min(max, Math.max(min, value))
  return [clamp(quantile(means, tail)), clamp(quantile(means, 1 - tail))]
}

/** The most resample indices kept for reuse (2 bytes each up to 65,536 queries): 40 MB. */
const MAX_KEPT_INDICES = 20_000_000
let kept: { key: string; indices: Uint16Array | Uint32Array } | null = null

/**
 * The resamples' indices, drawn once and kept for the next call with the
 * same size, count and seed: an experiment bootstraps every metric of a
 * comparison over the same paired queries, and drawing the indices is most
 * of the work. The same draws as drawing them in the loop, so the interval
 * is the same either way. Null when they would take too much memory.
 */
function resampleIndices(n: number, resamples: number, seed: number): Uint16Array | Uint32Array | null {
  if (n * resamples > MAX_KEPT_INDICES) return null
  const key = `${n}:${resamples}:${seed}`
  if (kept?.key === key) return kept.indices
  const random = seededRandom(seed)
  const indices = n <= 65_536 ? new Uint16Array(n * resamples) : new Uint32Array(n * resamples)
  for (let at = 0; at < indices.length; at++) indices[at] = Math.floor(random() * n)
  kept = { key, indices }
  return indices
}

/** Hyndman & Fan definition 7 on sorted values. */
export function quantile(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q
  const below = Math.floor(h)
  const above = Math.min(sorted.length - 1, below + 1)
  return sorted[below]! + (h - below) * (sorted[above]! - sorted[below]!)
}
