import { describe, expect, it } from 'vitest'
import { cutoffKeeping, probabilityBands } from '../../src/shared/experiments/probability-bands'
import type { QueryRanking } from '../../src/shared/relevance/evaluation'

function ranking(id: string, items: string[], probabilities?: number[], error: string | null = null): QueryRanking {
  return { id, text: id, items, labels: [], ...(probabilities ? { probabilities } : {}), error, durationMs: 1 }
}

const grades = (entries: Record<string, Record<string, number>>) =>
  new Map(Object.entries(entries).map(([query, items]) => [query, new Map(Object.entries(items))]))

// q1: a repeated (its second place, at 0.99, is not counted); c unjudged.
// q2: g unjudged. q3 failed. q4 has no probabilities (kept before they were).
// q5: probabilities outside [0, 1] are left out.
const RANKINGS = [
  ranking('q1', ['a', 'b', 'c', 'd', 'a'], [0.95, 0.7, 0.3, 0.05, 0.99]),
  ranking('q2', ['e', 'f', 'g'], [1, 0.1, 0.7]),
  ranking('q3', [], [], 'HTTP 500'),
  ranking('q4', ['h'], undefined),
  ranking('q5', ['i', 'j'], [1.5, -0.1]),
]
const GRADES = grades({
  q1: { a: 3, b: 2, d: 0 },
  q2: { e: 3, f: 1 },
  q4: { h: 3 },
  q5: { i: 3, j: 3 },
})

describe('probabilityBands', () => {
  it('counts items, judged items and their mean grade in ten bands', () => {
    const bands = probabilityBands(RANKINGS, GRADES)
    expect(bands).toHaveLength(10)
    expect(bands.map((band) => [band.from, band.to])).toEqual([
      [0, 0.1], [0.1, 0.2], [0.2, 0.3], [0.3, 0.4], [0.4, 0.5], [0.5, 0.6], [0.6, 0.7], [0.7, 0.8], [0.8, 0.9], [0.9, 1],
    ])
    const summary = bands.map(({ items, judged, meanGrade }) => [items, judged, meanGrade])
    expect(summary).toEqual([
      [1, 1, 0], // d 0.05 (grade 0)
      [1, 1, 1], // f 0.1, on the band's lower edge (grade 1)
      [0, 0, null],
      [1, 0, null], // c 0.3, unjudged
      [0, 0, null],
      [0, 0, null],
      [0, 0, null],
      [2, 1, 2], // b 0.7 (grade 2), g 0.7 unjudged
      [0, 0, null],
      [2, 2, 3], // a 0.95 and e 1.0, the last band closed at 1 (grades 3, 3)
    ])
  })

  it('takes any number of bands', () => {
    expect(probabilityBands(RANKINGS, GRADES, 4)).toEqual([
      { from: 0, to: 0.25, items: 2, judged: 2, meanGrade: 0.5 }, // d (0), f (1)
      { from: 0.25, to: 0.5, items: 1, judged: 0, meanGrade: null }, // c
      { from: 0.5, to: 0.75, items: 2, judged: 1, meanGrade: 2 }, // b (2), g
      { from: 0.75, to: 1, items: 2, judged: 2, meanGrade: 3 }, // a (3), e (3)
    ])
    expect(probabilityBands(RANKINGS, GRADES, 1)).toEqual([{ from: 0, to: 1, items: 7, judged: 5, meanGrade: 9 / 5 }])
    expect(probabilityBands([], GRADES, 2)).toEqual([
      { from: 0, to: 0.5, items: 0, judged: 0, meanGrade: null },
      { from: 0.5, to: 1, items: 0, judged: 0, meanGrade: null },
    ])
    expect(() => probabilityBands(RANKINGS, GRADES, 0)).toThrow(RangeError)
  })

  it('puts a probability on an edge in the band it opens, whatever the rounding of p × bands', () => {
    // 15/22 × 22 and 23/43 × 43 come out below 15 and 23 in floating point.
    for (const bands of [3, 7, 10, 13, 22, 43, 100]) {
      const probabilities = Array.from({ length: bands + 1 }, (_, index) => (index === bands ? 1 : index / bands))
      const items = probabilities.map((_, index) => `i${index}`)
      const counted = probabilityBands([ranking('q', items, probabilities)], new Map(), bands).map((band) => band.items)
      // Each edge opens its band; 1 closes the last, which so holds two.
      expect(counted).toEqual(Array.from({ length: bands }, (_, index) => (index === bands - 1 ? 2 : 1)))
    }
  })
})

describe('cutoffKeeping', () => {
  it('finds the highest cutoff keeping the share of relevant items asked for', () => {
    // Relevant at threshold 1: e 1.0, a 0.95, b 0.7, f 0.1 (d has grade 0, c
    // and g are unjudged, q4 has no probabilities, q5's are outside [0, 1]).
    // 90% of 4 is 3.6: all 4 must stay, so the cutoff is f's 0.1; it keeps
    // a, b, c, e, f, g (d's 0.05 falls below).
    expect(cutoffKeeping(RANKINGS, GRADES, 1)).toEqual({ cutoff: 0.1, kept: 6, relevant: 4, relevantTotal: 4 })
    // 75% of 4 is 3: the cutoff rises to b's 0.7 and keeps a, b, e, g.
    expect(cutoffKeeping(RANKINGS, GRADES, 1, 0.75)).toEqual({ cutoff: 0.7, kept: 4, relevant: 3, relevantTotal: 4 })
    // Threshold 2: e, a, b are relevant; half of 3 is 1.5, so 2 stay: cutoff a's 0.95, keeping a and e.
    expect(cutoffKeeping(RANKINGS, GRADES, 2, 0.5)).toEqual({ cutoff: 0.95, kept: 2, relevant: 2, relevantTotal: 3 })
    expect(cutoffKeeping(RANKINGS, GRADES, 3, 1)).toEqual({ cutoff: 0.95, kept: 2, relevant: 2, relevantTotal: 2 })
  })

  it('reads share × R without float noise: 70% of 10 is 7, not 8', () => {
    const probabilities = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]
    const items = probabilities.map((_, index) => `i${index}`)
    const judged = grades({ q: Object.fromEntries(items.map((item) => [item, 1])) })
    // The 7th highest of ten is 0.4.
    expect(cutoffKeeping([ranking('q', items, probabilities)], judged, 1, 0.7)).toEqual({ cutoff: 0.4, kept: 7, relevant: 7, relevantTotal: 10 })
  })

  it('is null when nothing retrieved is relevant, and refuses a share outside (0, 1]', () => {
    expect(cutoffKeeping(RANKINGS, GRADES, 4)).toBeNull()
    expect(cutoffKeeping([], GRADES, 1)).toBeNull()
    expect(() => cutoffKeeping(RANKINGS, GRADES, 1, 0)).toThrow(RangeError)
    expect(() => cutoffKeeping(RANKINGS, GRADES, 1, 1.1)).toThrow(RangeError)
  })
})
