import { describe, expect, it } from 'vitest'
import { distributionPoints } from '../../src/shared/results/distribution'

/** The statistics' distribution as the chart reads it: lowest cutoff first, cutoffs that are not numbers left out. */

describe('distribution points', () => {
  it('sorts the cutoffs as numbers, keeping the text the service wrote as the label', () => {
    const stats = [
      { cutoff: '0.5', numResults: 10 },
      { cutoff: '1', numResults: 2 },
      { cutoff: '0.25', numResults: 40 },
      { cutoff: '0.10', numResults: 90 },
    ]
    expect(distributionPoints({ total: 100, stats })).toEqual([
      { cutoff: 0.1, label: '0.10', numResults: 90 },
      { cutoff: 0.25, label: '0.25', numResults: 40 },
      { cutoff: 0.5, label: '0.5', numResults: 10 },
      { cutoff: 1, label: '1', numResults: 2 },
    ])
  })

  it('leaves out a cutoff that is not a finite number, and an empty distribution is no points', () => {
    const stats = [
      { cutoff: 'n/a', numResults: 1 },
      { cutoff: 'Infinity', numResults: 1 },
      { cutoff: '', numResults: 5 },
      { cutoff: ' ', numResults: 6 },
      { cutoff: '0.9', numResults: 3 },
    ]
    expect(distributionPoints({ total: 5, stats })).toEqual([{ cutoff: 0.9, label: '0.9', numResults: 3 }])
    expect(distributionPoints({ total: 0, stats: [] })).toEqual([])
  })
})
