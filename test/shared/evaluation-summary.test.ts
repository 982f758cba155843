import { describe, expect, it } from 'vitest'
import { EvaluationSummarySchema, notComparable, type EvaluationSummary } from '../../src/shared/relevance/evaluation-summary'
import { smallEvaluation } from '../fixtures/small-evaluation'

/** The small evaluation as a list holds it: rankings and per-query figures left out. */
const summary = (changes: Partial<EvaluationSummary> = {}): EvaluationSummary => ({ ...EvaluationSummarySchema.parse(smallEvaluation()), ...changes })

describe('EvaluationSummarySchema', () => {
  it('leaves out the rankings and the per-query figures, keeping the means', () => {
    const read = summary()
    expect(read).not.toHaveProperty('rankings')
    expect(read.scored).not.toHaveProperty('queries')
    expect(read.scored.means).toEqual({ 'p@2': 0.5, rr: 0.75 })
  })
})

describe('notComparable', () => {
  it('has nothing to say of two runs of the same set, judgments, depth and settings, on different targets', () => {
    expect(notComparable(summary(), summary({ targetText: 'Staging', at: '2026-02-01T00:00:00.000Z' }))).toEqual([])
  })

  it('says each reason, in order, with the values that differ', () => {
    const other = summary({
      set: 'Rivers',
      judgmentsDigest: 'c'.repeat(64),
      depth: 10,
      settings: { gain: 'linear', unjudged: 'skip', threshold: 2 },
    })
    expect(notComparable(summary(), other)).toEqual([
      'they evaluate different sets ("Capitals", "Rivers")',
      'the judgments changed between them',
      'they ran to different depths (2, 10)',
      'their settings differ (exponential gain, unjudged as not relevant, relevant from grade 1; linear gain, unjudged skipped, relevant from grade 2)',
    ])
  })

  it('tells a changed set (same name, another digest) from another set', () => {
    expect(notComparable(summary(), summary({ setDigest: 'd'.repeat(64) }))).toEqual(["the set's template or queries changed between them"])
  })
})
