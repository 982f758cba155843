import { describe, expect, it } from 'vitest'
import { agreementInThread, agreementOfSet } from '../../src/main/evaluation/agreement-thread'
import { SetAgreementSchema } from '../../src/shared/ipc/relevance-contract'
import { QuerySetSchema } from '../../src/shared/relevance/query-set'
import { ratersOf } from '../../src/shared/relevance/raters'
import { seededRandom } from '../../src/shared/seeded-random'
import { setAgreement } from '../../src/shared/relevance/set-agreement'
import { failureOf } from '../fixtures/failure-of'

/** A set's agreement on a real worker thread of its own, started for one request. */

function judgedSet() {
  const random = seededRandom(7)
  const queries = Array.from({ length: 20 }, (_, q) => ({ id: `q${q}`, text: `query ${q}` }))
  const judgments = queries.flatMap((query) =>
    Array.from({ length: 10 }, (_, i) => {
      const truth = Math.floor(random() * 4)
      return ['ana', 'ben', 'cy'].map((rater) => ({ query: query.id, item: `${query.id}-${i}`, rater, grade: random() < 0.7 ? truth : Math.floor(random() * 4) }))
    }).flat(),
  )
  judgments.push({ query: 'q0', item: 'q0-0', rater: 'adjudication', grade: 2 })
  return QuerySetSchema.parse({ name: 'Cities', query: 'Template', raters: [{ name: 'cy', kind: 'import' }], queries, judgments })
}

describe('agreementInThread', () => {
  it('answers what the figures give in process', async () => {
    const set = judgedSet()
    const input = { scale: [0, 1, 2, 3], queries: set.queries, judgments: set.judgments, raters: ratersOf(set), steps: 1, settled: true }
    const answer = await agreementInThread(input)
    expect(answer).toEqual(setAgreement(input))
    expect(SetAgreementSchema.parse(answer)).toEqual(answer)
    expect(answer.raters.map((rater) => [rater.rater, rater.kind, rater.judgments])).toEqual([['cy', 'import', 200], ['ana', 'person', 200], ['ben', 'person', 200]])
    expect(answer.disagreements.total).toBeGreaterThan(0)
  })
})

describe('agreementOfSet', () => {
  it('refuses a rater the set has not, or more steps than its scale, naming the field', async () => {
    const set = judgedSet()
    const unknown = await failureOf(agreementOfSet(set, { raters: ['ana', 'zoe'] }))
    expect([unknown.code, unknown.message]).toEqual(['validation', 'raters: "zoe" is no rater of the set "Cities" (its raters: cy, ana, ben).'])
    // The adjudicator settles; it is not a rater to compare.
    expect((await failureOf(agreementOfSet(set, { raters: ['adjudication'] }))).message).toMatch(/^raters: "adjudication" is no rater/)
    const steps = await failureOf(agreementOfSet(set, { steps: 4 }))
    expect([steps.code, steps.message]).toEqual(['validation', 'steps: 4 is more than the scale has (4 grades, so 3 steps at most).'])
  })
})
