import { describe, expect, it } from 'vitest'
import { experimentSummary, ExperimentRecordSchema, ExperimentSummarySchema, type ExperimentRecord } from '../../src/shared/experiments/experiment-record'
import { experimentRecord } from '../fixtures/kept-evaluation'
import { smallStats } from '../fixtures/small-evaluation'

/** The kept record with the small experiment's statistics: two comparisons, the second made significant here. */
function record(): ExperimentRecord {
  const stats = smallStats()
  stats.comparisons[1] = { ...stats.comparisons[1]!, pAdjusted: 0.01, significant: true }
  return { ...experimentRecord('e1', ['a', 'b']), stats }
}

describe('ExperimentRecordSchema', () => {
  it('reads a kept experiment back as it was written', () => {
    const written = record()
    expect(ExperimentRecordSchema.parse(JSON.parse(JSON.stringify(written)))).toEqual(written)
  })

  it('refuses a record with a state it does not know, or a comparison without its p, naming where', () => {
    const stopped = ExperimentRecordSchema.safeParse({ ...record(), state: 'running' })
    expect(stopped.error!.issues.map((issue) => issue.path.join('.'))).toEqual(['state'])
    const written = record()
    const withoutP: Partial<(typeof written.stats.comparisons)[number]> = { ...written.stats.comparisons[0]! }
    delete withoutP.p
    const broken = ExperimentRecordSchema.safeParse({ ...written, stats: { ...written.stats, comparisons: [withoutP] } })
    expect(broken.error!.issues.map((issue) => issue.path.join('.'))).toEqual(['stats.comparisons.0.p'])
  })
})

describe('experimentSummary', () => {
  it('drops the statistics and counts the significant comparisons of all', () => {
    const summary = experimentSummary(record())
    expect(summary).not.toHaveProperty('stats')
    expect([summary.significant, summary.comparisons]).toEqual([1, 2])
    expect(summary.sides.map((side) => side.evaluationId)).toEqual(['a', 'b'])
    expect(ExperimentSummarySchema.parse(summary)).toEqual(summary)
  })

  it('counts none of none for an experiment that compared nothing', () => {
    const summary = experimentSummary(experimentRecord('e2', ['a', 'b']))
    expect([summary.significant, summary.comparisons]).toEqual([0, 0])
  })
})
