import type { CompareSide } from './comparison'

/**
 * The two sides' probability distributions on one axis, as the compare
 * chart draws them: one point per cutoff either side names, lowest cutoff
 * first (as the single distribution chart does), with each side's number of
 * results there, or null where that side names no such cutoff. Cutoffs that
 * are not numbers are left out; two texts of the same number ("0.5", "0.50")
 * are one point.
 */

export interface ComparePoint {
  cutoff: number
  label: string
  a: number | null
  b: number | null
}

export function compareDistribution(a: CompareSide['stats'], b: CompareSide['stats']): ComparePoint[] {
  const points = new Map<number, ComparePoint>()
  const add = (stats: CompareSide['stats'], side: 'a' | 'b') => {
    for (const entry of stats) {
      const cutoff = Number(entry.cutoff)
      if (entry.cutoff.trim() === '' || !Number.isFinite(cutoff)) continue
      const point = points.get(cutoff) ?? { cutoff, label: entry.cutoff, a: null, b: null }
      // The first number a side gives for a cutoff counts, as a page never repeats one.
      if (point[side] === null) point[side] = entry.numResults
      points.set(cutoff, point)
    }
  }
  add(a, 'a')
  add(b, 'b')
  return [...points.values()].sort((x, y) => x.cutoff - y.cutoff)
}
