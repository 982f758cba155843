import { describe, expect, it } from 'vitest'
import { evaluationJudgeNext, evaluationJudgeNextJson, evaluationJudgeNextLines, experimentJudgeNext, experimentJudgeNextJson, experimentJudgeNextLines } from '../../src/cli/commands/eval-judge-next'
import { experimentStats } from '../../src/shared/experiments/experiment'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { gradesOfSet } from '../../src/shared/relevance/grade-aggregate'
import { SMALL_JUDGMENTS, SMALL_METRICS, SMALL_RANKINGS_B, smallEvaluation } from '../fixtures/small-evaluation'

/**
 * `eval --judge-next`'s report, over the small set worked by hand
 * (fixtures/small-evaluation.ts): q1 paris [p1 3, p2 0] fully judged; q2
 * berlin [b2 unjudged, b1 2]; q3 failed. P@2 and RR at threshold 1.
 *   q2 with b2 at the bottom (0): P@2 1/2, RR 1/2 (b1 at rank 2); at the top: P@2 1, RR 1.
 *   Means over q1 (P@2 1/2, RR 1) and q2: P@2 0.5 now, between 0.5 and 0.75; RR 0.75, between 0.75 and 1.
 */

const SET: QuerySet = {
  name: 'Cities',
  query: 'City search',
  queries: [
    { id: 'q1', text: 'paris' },
    { id: 'q2', text: 'berlin' },
    { id: 'q3', text: 'oslo' },
  ],
  judgments: SMALL_JUDGMENTS,
}

describe('eval --judge-next for one target', () => {
  const evaluation = smallEvaluation()
  const result = evaluationJudgeNext(evaluation, SET, SMALL_METRICS, 5)

  it('lists the one unjudged pair that could move a figure, then the summary and each mean between its two ends', () => {
    const lines = evaluationJudgeNextLines(result, SMALL_METRICS, evaluation.judgeDepth)
    expect(lines[0]).toBe('Judge next (1 of 1 unjudged pair that could change a figure)')
    expect(lines[1]).toMatch(/^id\s+query\s+item\s+rank\s+why$/)
    expect(lines[2]).toMatch(/^q2\s+berlin\s+b2\s+1\s+rank 1; /)
    expect(lines[3]).toBe(result.summary)
    expect(lines.slice(4)).toEqual([
      `P@2 0.5000, between 0.5000 and 0.7500 once the unjudged top ${evaluation.judgeDepth} are judged`,
      `RR 0.7500, between 0.7500 and 1.0000 once the unjudged top ${evaluation.judgeDepth} are judged`,
    ])
  })

  it('gives the queue, the total, the summary and the means as JSON', () => {
    const json = evaluationJudgeNextJson(result) as { queue: { query: string; item: string; ranks: (number | null)[] }[]; total: number; summary: string; means: Record<string, { low: number; high: number }> }
    expect(Object.keys(json)).toEqual(['queue', 'total', 'summary', 'means'])
    expect(json.queue.map(({ query, item, ranks }) => [query, item, ranks])).toEqual([['q2', 'b2', [1]]])
    expect(json.total).toBe(1)
    expect(json.means['p@2']).toMatchObject({ low: 0.5, high: 0.75 })
    expect(json.means.rr).toMatchObject({ low: 0.75, high: 1 })
  })

  it('says the queue is empty when nothing unjudged is in any top k', () => {
    const judged = { ...SET, judgments: [...SMALL_JUDGMENTS, { query: 'q2', item: 'b2', rater: 'r1', grade: 0 }] }
    const lines = evaluationJudgeNextLines(evaluationJudgeNext(evaluation, judged, SMALL_METRICS, 5), SMALL_METRICS, evaluation.judgeDepth)
    expect(lines[0]).toBe('Judge next (0 of 0 unjudged pairs that could change a figure)')
    expect(lines[2]).toMatch(/^P@2 0\.5000, between 0\.5000 and 0\.5000/)
  })
})

describe('eval --judge-next for an experiment', () => {
  // A is the small evaluation; B ranks q2's b1 first and answers q3 with o1, unjudged.
  const a = smallEvaluation()
  const b = smallEvaluation('B', SMALL_RANKINGS_B)
  const side = (evaluation: typeof a, label: string) => ({ label, rankings: evaluation.rankings, scored: evaluation.scored })
  const stats = experimentStats(side(a, 'A'), [side(b, 'B')], gradesOfSet(SET), a.judgeDepth)
  const result = experimentJudgeNext([a, b], SET, SMALL_METRICS, stats, 5)

  it("gives each delta's interval and verdict in words, with the experiment's own p-values", () => {
    const lines = experimentJudgeNextLines(result, SMALL_METRICS, a.judgeDepth)
    expect(lines[0]).toMatch(/^Judge next \(\d+ of \d+ unjudged pairs? that could change a figure\)$/)
    const verdicts = lines.filter((line) => / Δ B − A /.test(line))
    expect(verdicts).toHaveLength(2)
    for (const line of verdicts) expect(line).toMatch(/once the unjudged top \d+ are judged: (decided \((not )?significant either way\)|could change (sign|significance)(, could change significance)?)$/)
    for (const verdict of result.verdicts) {
      const comparison = stats.comparisons.find((each) => each.metric === verdict.metric)!
      expect(verdict.pAdjusted.current).toBe(comparison.pAdjusted)
    }
  })

  it('names the metric of each verdict in the JSON, and the queue with a rank per side', () => {
    const json = experimentJudgeNextJson(result, SMALL_METRICS) as { queue: { ranks: (number | null)[] }[]; verdicts: { metric: string; label: string }[] }
    expect(json.verdicts.map(({ metric, label }) => [metric, label])).toEqual([
      ['p@2', 'P@2'],
      ['rr', 'RR'],
    ])
    for (const entry of json.queue) expect(entry.ranks).toHaveLength(2)
  })
})
