import { describe, expect, it } from 'vitest'
import { EvaluationHeadSchema, headOf, RankingPageSchema } from '../../src/shared/relevance/evaluation-head'
import { smallEvaluation } from '../fixtures/small-evaluation'

describe('headOf', () => {
  it('keeps everything but the rankings: how many there are, and each query that ran its top judgeDepth items', () => {
    const evaluation = { ...smallEvaluation(), judgeDepth: 1 }
    const head = headOf(evaluation)
    expect(head).not.toHaveProperty('rankings')
    expect(head.rankingCount).toBe(3)
    // q3 failed: it has no preview.
    expect(head.previews).toEqual({ q1: ['p1'], q2: ['b2'] })
    expect(head.scored).toBe(evaluation.scored)
    expect(EvaluationHeadSchema.parse(JSON.parse(JSON.stringify(head)))).toEqual(head)
  })

  it('gives an evaluation with no rankings a count of 0 and no previews', () => {
    const head = headOf({ ...smallEvaluation(), rankings: [] })
    expect([head.rankingCount, head.previews]).toEqual([0, {}])
  })
})

describe('RankingPageSchema', () => {
  it('reads a page, and refuses a negative offset or a count that is not whole', () => {
    const rankings = smallEvaluation().rankings
    expect(RankingPageSchema.parse({ total: 3, offset: 2, rankings: rankings.slice(2) }).rankings).toEqual([rankings[2]])
    expect(RankingPageSchema.safeParse({ total: 3, offset: -1, rankings: [] }).error!.issues[0]!.path).toEqual(['offset'])
    expect(RankingPageSchema.safeParse({ total: 2.5, offset: 0, rankings: [] }).error!.issues[0]!.path).toEqual(['total'])
  })
})
