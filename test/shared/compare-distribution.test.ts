import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareDistribution } from '../../src/shared/compare/compare-distribution'

describe('two distributions on one axis', () => {
  it('joins the cutoffs of both sides, lowest first, with null where a side names none', () => {
    const a = [{ cutoff: '0.5', numResults: 3 }, { cutoff: '0.0', numResults: 40 }]
    const b = [{ cutoff: '0.50', numResults: 7 }, { cutoff: '0.9', numResults: 1 }, { cutoff: 'x', numResults: 2 }, { cutoff: '', numResults: 2 }]
    expect(compareDistribution(a, b)).toEqual([
      { cutoff: 0, label: '0.0', a: 40, b: null },
      { cutoff: 0.5, label: '0.5', a: 3, b: 7 },
      { cutoff: 0.9, label: '0.9', a: null, b: 1 },
    ])
    expect(compareDistribution([], [])).toEqual([])
  })

  it('keeps every numeric cutoff of each side once, in order', () => {
    const stats = fc.array(fc.record({ cutoff: fc.double({ min: 0, max: 1, noNaN: true }).map(String), numResults: fc.nat() }))
    fc.assert(
      fc.property(stats, stats, (a, b) => {
        const points = compareDistribution(a, b)
        expect(points.map((point) => point.cutoff)).toEqual([...new Set([...a, ...b].map((entry) => Number(entry.cutoff)))].sort((x, y) => x - y))
        for (const point of points) expect(point.a !== null || point.b !== null).toBe(true)
      }),
    )
  })
})
