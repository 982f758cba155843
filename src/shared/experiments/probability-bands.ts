import type { QueryRanking } from '../relevance/evaluation'

/**
 * Probability against grade, for one evaluation: does the service's
 * probability of an item say how relevant people judged it? Items are put in
 * bands of probability; each band counts its items, how many are judged, and
 * their mean grade. And the cutoff question: how high can a probability
 * cutoff go and still keep most of the relevant items? docs/METRICS.md
 * ("Experiments") is the definition.
 *
 * An item counts once per query, at its first place (as the metrics count
 * it); an item with no probability, or one outside [0, 1], is left out;
 * failed queries have no items.
 */

type Grades = ReadonlyMap<string, ReadonlyMap<string, number>>

export interface ProbabilityBand {
  /** [from, to); the last band is [from, 1]. */
  from: number
  to: number
  /** Items whose probability falls in the band. */
  items: number
  /** Of those, the judged ones. */
  judged: number
  /** The mean grade of the judged ones; null when none is judged. */
  meanGrade: number | null
}

interface ScoredItem {
  probability: number
  grade: number | undefined
}

/** Every retrieved item with a probability in [0, 1], once per query, with its grade when judged. */
function itemsWithProbability(rankings: readonly QueryRanking[], grades: Grades): ScoredItem[] {
  const items: ScoredItem[] = []
  for (const ranking of rankings) {
    if (ranking.error !== null || !ranking.probabilities) continue
    const own = grades.get(ranking.id)
    const seen = new Set<string>()
    ranking.items.forEach((item, index) => {
      if (seen.has(item)) return
      seen.add(item)
      const probability = ranking.probabilities![index]
      if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) return
      items.push({ probability, grade: own?.get(item) })
    })
  }
  return items
}

/** `bands` equal bands over [0, 1]: band i is [i/bands, (i+1)/bands), the last one closed at 1. */
export function probabilityBands(rankings: readonly QueryRanking[], grades: Grades, bands = 10): ProbabilityBand[] {
  if (!Number.isInteger(bands) || bands < 1) throw new RangeError(`bands is a whole number of at least 1, not ${bands}`)
  const edge = (index: number) => (index === bands ? 1 : index / bands)
  const counts = Array.from({ length: bands }, () => ({ items: 0, judged: 0, gradeSum: 0 }))
  for (const { probability, grade } of itemsWithProbability(rankings, grades)) {
    let band = Math.min(bands - 1, Math.floor(probability * bands))
    // The product can round across an edge; the edges as written decide.
    if (band < bands - 1 && probability >= edge(band + 1)) band++
    if (band > 0 && probability < edge(band)) band--
    const count = counts[band]!
    count.items++
    if (grade !== undefined) {
      count.judged++
      count.gradeSum += grade
    }
  }
  return counts.map((count, index) => ({
    from: edge(index),
    to: edge(index + 1),
    items: count.items,
    judged: count.judged,
    meanGrade: count.judged === 0 ? null : count.gradeSum / count.judged,
  }))
}

export interface CutoffResult {
  /** Keep the items whose probability is at least this. */
  cutoff: number
  /** Items (judged or not) the cutoff keeps. */
  kept: number
  /** Relevant items it keeps: at least share × relevantTotal. */
  relevant: number
  /** Relevant judged items retrieved with a probability, kept or not. */
  relevantTotal: number
}

/**
 * The highest probability cutoff that still keeps at least `share` of the
 * relevant items (judged with grade ≥ threshold, retrieved, with a
 * probability), an item being kept when its probability is ≥ the cutoff:
 * the ⌈share × R⌉-th highest probability among the R relevant items. Null
 * when none is relevant.
 */
export function cutoffKeeping(rankings: readonly QueryRanking[], grades: Grades, threshold: number, share = 0.9): CutoffResult | null {
  if (!(share > 0 && share <= 1)) throw new RangeError(`share is a number above 0 and at most 1, not ${share}`)
  const items = itemsWithProbability(rankings, grades)
  const relevant = items
    .filter((item) => item.grade !== undefined && item.grade >= threshold)
    .map((item) => item.probability)
    .sort((a, b) => b - a)
  if (relevant.length === 0) return null
  // 0.7 × 10 is 7.000000000000001 in floating point: the tolerance keeps it 7.
  const needed = Math.max(1, Math.ceil(share * relevant.length - 1e-9))
  const cutoff = relevant[needed - 1]!
  return {
    cutoff,
    kept: items.filter((item) => item.probability >= cutoff).length,
    relevant: relevant.filter((probability) => probability >= cutoff).length,
    relevantTotal: relevant.length,
  }
}
