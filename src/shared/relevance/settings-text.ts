import type { MetricSettings, Scale } from './query-set'

/**
 * How an evaluation read its grades, in words, as shown beside every figure
 * (the window) and under every table (the command line).
 */
export function settingsText(settings: MetricSettings, scale: Scale, depth?: number): string {
  const threshold = scale.find((step) => step.grade === settings.threshold)
  return [
    settings.gain === 'exponential' ? 'exponential gain (2^g − 1)' : 'linear gain (g)',
    settings.unjudged === 'zero' ? 'unjudged results count as not relevant' : 'unjudged results skipped',
    `relevant from grade ${settings.threshold}${threshold ? ` (${threshold.label})` : ''}`,
    ...(depth !== undefined ? [`depth ${depth}`] : []),
  ].join(' · ')
}
