import { describe, expect, it } from 'vitest'
import { JudgeCalibrationSchema } from '../../src/shared/ipc/judge-contract'
import { judgeCalibration, peopleRule, placeOnScale, roundToScale, type CalibrationSet } from '../../src/shared/relevance/judge-calibration'
import { referenceRaters } from '../../src/shared/relevance/raters'

const JUDGE = 'llm:demo'
const j = (query: string, item: string, rater: string, grade: number, explanation?: string) => ({ query, item, rater, grade, ...(explanation ? { explanation } : {}) })

/**
 * ann (a person) and bob (an import) against the judge, on the default scale 0–3:
 *
 *   item     ann  bob  judge  settled   people (mean, rounded half up)
 *   q1 x1     3    3     3               3
 *   q1 x2     2    1     0               1.5 → 2
 *   q1 x3     0          0               0
 *   q2 y1          1     2               1
 *   q2 y2     2          2      1        2       (the settled grade is shown, not read as the people's)
 *   q2 y3               3               —       (no person: not counted)
 *   q2 y4     1                         —       (no judge: not counted)
 *   q2 y5     0          3      0        0
 *
 * and another model (llm:other) on x1, which is no person and is left out.
 */
const SET: CalibrationSet = {
  queries: [
    { id: 'q1', text: 'paris' },
    { id: 'q2', text: 'lyon' },
  ],
  raters: [
    { name: 'ann', kind: 'person' },
    { name: 'bob', kind: 'import' },
  ],
  judgments: [
    j('q1', 'x1', 'ann', 3),
    j('q1', 'x1', 'bob', 3),
    j('q1', 'x1', JUDGE, 3, 'names the city'),
    j('q1', 'x1', 'llm:other', 0),
    j('q1', 'x2', 'ann', 2),
    j('q1', 'x2', 'bob', 1),
    j('q1', 'x2', JUDGE, 0, 'a street, not the city'),
    j('q1', 'x3', 'ann', 0),
    j('q1', 'x3', JUDGE, 0),
    j('q2', 'y1', 'bob', 1),
    j('q2', 'y1', JUDGE, 2, 'near lyon'),
    j('q2', 'y2', 'ann', 2),
    j('q2', 'y2', JUDGE, 2),
    j('q2', 'y2', 'adjudication', 1),
    j('q2', 'y3', JUDGE, 3),
    j('q2', 'y4', 'ann', 1),
    j('q2', 'y5', 'ann', 0),
    j('q2', 'y5', JUDGE, 3, 'lyon in the title'),
    j('q2', 'y5', 'adjudication', 0),
  ],
}

describe('judgeCalibration', () => {
  it('gives kappa, alpha, agreement and the confusion matrix as worked out by hand', () => {
    const found = judgeCalibration(SET, JUDGE)
    expect(JudgeCalibrationSchema.parse(found)).toEqual(found)
    expect(found.n).toBe(6)
    expect(found.scale).toEqual([0, 1, 2, 3])
    // (people, judge): (3,3) (2,0) (0,0) (1,2) (2,2) (0,3); rows the people's grade, columns the judge's.
    expect(found.confusion).toEqual([
      [1, 0, 0, 1],
      [0, 0, 1, 0],
      [1, 0, 1, 0],
      [0, 0, 0, 1],
    ])
    // Three of the six on the diagonal.
    expect(found.agreement).toBe(0.5)
    // Quadratic kappa: rows r = (2, 1, 2, 1), columns c = (2, 0, 2, 2), n = 6.
    // Observed Σ w·O = 9 (0→3) + 1 (1→2) + 4 (2→0) = 14.
    // Expected Σ (i − j)² r_i c_j / n = (52 + 12 + 20 + 20) / 6 = 104 / 6.
    // κ = 1 − 14 / (104 / 6) = 1 − 84 / 104 = 20 / 104. scikit-learn 1.2.1 (Debian's python3-sklearn):
    // cohen_kappa_score([3,2,0,1,2,0], [3,0,0,2,2,3], labels=[0,1,2,3], weights='quadratic') = 0.1923076923076923.
    expect(found.kappaQuadratic).toBeCloseTo(20 / 104, 14)
    expect(found.kappaQuadratic).toBeCloseTo(0.1923076923076923, 14)
    // Ordinal alpha, the judge, ann and bob each a coder (their own grades, not the aggregate). Counts per place:
    // x1 [0,0,0,3] m 3, x2 [1,1,1,0] m 3, x3 [2,0,0,0], y1 [0,1,1,0], y2 [0,0,2,0], y5 [1,0,0,1] (m 2).
    // Coincidences o (symmetric): o00 2, o01 ½, o02 ½, o03 1, o12 1½, o22 2, o33 3; n_c = (4, 2, 4, 4), n = 14.
    // δ²: (0,1) (6 − 3)² = 9, (0,2) (10 − 4)² = 36, (0,3) (14 − 4)² = 100, (1,2) (6 − 3)² = 9, (1,3) (10 − 3)² = 49, (2,3) (8 − 4)² = 16.
    // D_o = 2(½·9 + ½·36 + 1·100 + 1½·9) = 272; D_e = 2(8·9 + 16·36 + 16·100 + 8·9 + 8·49 + 16·16) / 13 = 5936 / 13.
    // α = 1 − 272 · 13 / 5936 = 2400 / 5936.
    expect(found.alphaOrdinal).toBeCloseTo(2400 / 5936, 14)
    expect(found.reasons).toEqual({})
    expect(found.stale).toBeNull()
  })

  it('lists where the judge and the people differ, widest first, with the explanation, each person and the settled grade', () => {
    const found = judgeCalibration(SET, JUDGE)
    expect(found.differences).toEqual([
      { query: 'q2', text: 'lyon', item: 'y5', judgeGrade: 3, explanation: 'lyon in the title', people: [{ rater: 'ann', grade: 0 }], peopleGrade: 0, spread: 3, settled: 0 },
      {
        query: 'q1',
        text: 'paris',
        item: 'x2',
        judgeGrade: 0,
        explanation: 'a street, not the city',
        people: [
          { rater: 'ann', grade: 2 },
          { rater: 'bob', grade: 1 },
        ],
        peopleGrade: 1.5,
        spread: 1.5,
        settled: null,
      },
      { query: 'q2', text: 'lyon', item: 'y1', judgeGrade: 2, explanation: 'near lyon', people: [{ rater: 'bob', grade: 1 }], peopleGrade: 1, spread: 1, settled: null },
    ])
    // Two places or more apart: x2 (0 against 2, rounded) and y5; at most one listed.
    expect(judgeCalibration(SET, JUDGE, { steps: 2 }).differences.map((row) => row.item)).toEqual(['y5', 'x2'])
    expect(judgeCalibration(SET, JUDGE, { steps: 2, limit: 1 }).differences.map((row) => row.item)).toEqual(['y5'])
  })

  it("makes the people's grade by the set's rule", () => {
    // Pessimistic: x2's people grade is 1, so (1, 0) and one place apart.
    const found = judgeCalibration({ ...SET, settings: { aggregate: 'min' } }, JUDGE)
    expect(found.confusion[1]).toEqual([1, 0, 1, 0])
    expect(found.differences.find((row) => row.item === 'x2')).toMatchObject({ peopleGrade: 1, spread: 1 })
    // bob's grades only: the items bob graded (x1, x2, y1).
    expect(judgeCalibration({ ...SET, settings: { aggregate: 'rater:bob' } }, JUDGE).n).toBe(3)
    // A rule naming the judge itself would leave the people no grade: their mean is used.
    expect(judgeCalibration({ ...SET, settings: { aggregate: `rater:${JUDGE}` } }, JUDGE)).toEqual(judgeCalibration(SET, JUDGE))
  })

  it('says why a figure is undefined', () => {
    const none = judgeCalibration(SET, 'llm:nobody')
    expect([none.n, none.kappaQuadratic, none.alphaOrdinal, none.agreement]).toEqual([0, null, null, null])
    expect(none.reasons).toEqual({
      kappaQuadratic: 'the judge llm:nobody has graded no item of the set',
      alphaOrdinal: 'the judge llm:nobody has graded no item of the set',
      agreement: 'the judge llm:nobody has graded no item of the set',
    })
    expect(none.confusion).toEqual([0, 1, 2, 3].map(() => [0, 0, 0, 0]))
    const judgeOnly = { ...SET, judgments: SET.judgments.filter((judgment) => judgment.rater === JUDGE) }
    expect(judgeCalibration(judgeOnly, JUDGE).reasons.kappaQuadratic).toBe('no person has graded an item of the set')
    const apart = { ...SET, judgments: [j('q1', 'x1', JUDGE, 3), j('q1', 'x2', 'ann', 2)] }
    expect(judgeCalibration(apart, JUDGE).reasons.agreement).toBe('no item is graded by both the judge and a person')
    // Everyone gave every item one grade: chance would agree as well (kappa and alpha 0/0), the agreement is 1.
    const same = { ...SET, judgments: [j('q1', 'x1', JUDGE, 2), j('q1', 'x1', 'ann', 2), j('q1', 'x2', JUDGE, 2), j('q1', 'x2', 'bob', 2)] }
    const found = judgeCalibration(same, JUDGE)
    expect([found.n, found.kappaQuadratic, found.alphaOrdinal, found.agreement]).toEqual([2, null, null, 1])
    expect(found.reasons).toEqual({
      kappaQuadratic: 'the judge and the people gave every item one and the same grade, so chance alone would agree as well',
      alphaOrdinal: 'every grade is the same, so there is no disagreement to expect',
    })
  })

  it("equals Debian's python3-sklearn on 48 items", () => {
    // One person and the judge on 48 items (seeded, written out here); the figure was computed once with scikit-learn 1.2.1:
    // cohen_kappa_score([int(c) for c in PEOPLE], [int(c) for c in JUDGED], labels=[0, 1, 2, 3], weights='quadratic').
    const PEOPLE = '100311211003022201123310201212013021030131101301'
    const JUDGED = '110321222003022300223300210213012032030231101101'
    const SKLEARN_KAPPA_QUADRATIC = 0.8298507462686567
    const judgments = [...PEOPLE].flatMap((grade, index) => [j('q1', `i${index}`, 'ann', Number(grade)), j('q1', `i${index}`, JUDGE, Number(JUDGED[index]))])
    const found = judgeCalibration({ queries: [{ id: 'q1', text: 'paris' }], judgments }, JUDGE)
    expect(found.n).toBe(48)
    expect(found.kappaQuadratic).toBeCloseTo(SKLEARN_KAPPA_QUADRATIC, 14)
  })

  it('rounds a grade half up to the scale and places it between grades', () => {
    expect([0.49, 0.5, 1.5, 2.4999, 3].map((value) => roundToScale(value, [0, 1, 2, 3]))).toEqual([0, 1, 2, 2, 3])
    // On 0, 1, 3, 7: 2 is halfway between 1 and 3 (up to 3), 4.9 nearer 3, 5 halfway to 7.
    expect([2, 4.9, 5, (1 + 1 + 2) / 3].map((value) => roundToScale(value, [0, 1, 3, 7]))).toEqual([3, 3, 7, 1])
    expect([0, 2, 5, 7].map((value) => placeOnScale(value, [0, 1, 3, 7]))).toEqual([0, 1.5, 2.5, 3])
  })

  it("uses the set's rule for the people unless it names no person", () => {
    const reference = referenceRaters(SET)
    expect(peopleRule(undefined, reference.has)).toBe('mean')
    expect(peopleRule('majority', reference.has)).toBe('majority')
    expect(peopleRule('rater:bob', reference.has)).toBe('rater:bob')
    expect(peopleRule('rater:llm:other', reference.has)).toBe('mean')
  })
})
