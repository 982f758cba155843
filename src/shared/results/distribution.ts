import type { StatisticsResponse } from '../responses'

/**
 * The statistics' distribution as a chart reads it: one point per cutoff,
 * lowest cutoff first, so the x axis runs from 0 to 1 as readers expect.
 * Cutoffs the service writes as text that is not a number are left out;
 * blank text too, which `Number` would read as 0.
 */

export interface DistributionPoint {
  cutoff: number
  label: string
  numResults: number
}

export function distributionPoints(statistics: StatisticsResponse): DistributionPoint[] {
  return statistics.stats
    .map((entry) => ({ cutoff: entry.cutoff.trim() === '' ? NaN : Number(entry.cutoff), label: entry.cutoff, numResults: entry.numResults }))
    .filter((point) => Number.isFinite(point.cutoff))
    .sort((a, b) => a.cutoff - b.cutoff)
}
