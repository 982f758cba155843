import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AgreementInputSchema, raterAgreement } from '../../src/shared/relevance/rater-agreement'

const SCALE = [0, 1, 2, 3]

/** Judgments from `{ rater: { item: grade } }`, all for query q unless the item says `query/item`. */
function judged(byRater: Record<string, Record<string, number>>) {
  return Object.entries(byRater).flatMap(([rater, grades]) =>
    Object.entries(grades).map(([key, grade]) => {
      const [query, item] = key.includes('/') ? key.split('/') : ['q', key]
      return { query: query!, item: item!, rater, grade }
    }),
  )
}

describe('raterAgreement', () => {
  it('perfect agreement: every figure is 1', () => {
    // Items a..d graded 0, 1, 2, 3 by both: no disagreement at all, and chance would disagree (four grades used).
    const report = raterAgreement({ scale: SCALE, judgments: judged({ x: { a: 0, b: 1, c: 2, d: 3 }, y: { a: 0, b: 1, c: 2, d: 3 } }) })
    expect(report.raters).toEqual([
      { rater: 'x', kind: null, judgments: 4 },
      { rater: 'y', kind: null, judgments: 4 },
    ])
    expect(report.pairs).toMatchObject([{ a: 'x', b: 'y', n: 4, agreement: 1, kappa: 1, kappaLinear: 1, kappaQuadratic: 1, reasons: {} }])
    expect(report.fleiss).toEqual({ n: 4, raters: 2, kappa: 1 })
    expect(report.alpha).toEqual({ n: 4, nominal: 1, ordinal: 1, interval: 1, reasons: {} })
    expect(report.queries).toEqual([{ id: 'q', n: 4, alpha: 1 }])
  })

  it('chance-level agreement: kappa 0, alpha 1/8 (alpha corrects for the few items)', () => {
    // x: 0, 0, 1, 1; y: 0, 1, 0, 1. Confusion [[1,1],[1,1]]: agreement ½, E = O in each cell, so κ = 0 under every weighting.
    // Fleiss: Pᵢ = 1, 0, 0, 1, P̄ = ½ = P̄ₑ, κ = 0. Alpha: o = [[2,2],[2,2]], n = (4, 4), Do = 4, De = 2·16/7; α = 1 − 28/32 = 1/8
    // (δ² is 1 under nominal and interval, 16 under ordinal on both sides of the ratio).
    const report = raterAgreement({ scale: SCALE, judgments: judged({ x: { a: 0, b: 0, c: 1, d: 1 }, y: { a: 0, b: 1, c: 0, d: 1 } }) })
    expect(report.pairs).toMatchObject([{ n: 4, agreement: 0.5, kappa: 0, kappaLinear: 0, kappaQuadratic: 0 }])
    expect(report.fleiss.kappa).toBe(0)
    expect(report.alpha.nominal).toBeCloseTo(0.125, 15)
    expect(report.alpha.ordinal).toBeCloseTo(0.125, 15)
    expect(report.alpha.interval).toBeCloseTo(0.125, 15)
  })

  it('a rater who uses one grade only: kappa 0 against anyone, Fleiss −1/3', () => {
    // x always 2, y 0, 1, 2, 3: row 2 of the confusion is 1,1,1,1 and E is the same, so κ = 0; agreement ¼.
    // Fleiss and alpha are worked in fleiss-kappa.test.ts and krippendorff-alpha.test.ts.
    const report = raterAgreement({ scale: SCALE, judgments: judged({ x: { a: 2, b: 2, c: 2, d: 2 }, y: { a: 0, b: 1, c: 2, d: 3 } }) })
    expect(report.pairs).toMatchObject([{ n: 4, agreement: 0.25, kappa: 0, kappaLinear: 0, kappaQuadratic: 0 }])
    expect(report.fleiss.kappa).toBeCloseTo(-1 / 3, 15)
    expect(report.alpha.nominal).toBeCloseTo(-1 / 6, 14)
    expect(report.alpha.ordinal).toBeCloseTo(0.0703125, 14)
    expect(report.alpha.interval).toBeCloseTo(1 / 22, 14)
  })

  it('missing grades and an item graded by one rater only', () => {
    // q1: a = x 3, y 3, z 2; b = x 1, y 1; c = x 0, z 0. q2: d = y 2 only.
    // x–y on a, b: same grades, κ = 1. x–z on a, c: (3,2), (0,0): agreement ½, κ 1/3, 2/3, 6/7 (cohen-kappa.test.ts).
    // y–z on a only: (3,2): agreement 0, and E = O, so κ = 0.
    // Fleiss: 1 item with 3 raters, 2 with 2: it takes the 2 (b, c), each Pᵢ = 1, p = (½, ½): κ = (1 − ½)/(1 − ½) = 1.
    // Alpha on a, b, c (d has one grade): o00 = 2, o11 = 2, o33 = 1, o23 = o32 = 1; n = (2, 2, 1, 2), n.. = 7.
    //   nominal: Do = 2, De = (49 − 13)/6 = 6; α = 2/3.
    //   ordinal: δ²(2,3) = (3 − 1.5)² = 2.25, Do = 4.5; De = 2/6 · (16 + 24.5 + 100 + 4.5 + 36 + 4.5) = 371/6; α = 1 − 27/371.
    //   interval: Do = 2, De = 2/6 · (4 + 8 + 36 + 2 + 16 + 2) = 136/6; α = 1 − 12/136 = 31/34.
    const report = raterAgreement({
      scale: SCALE,
      judgments: judged({ x: { 'q1/a': 3, 'q1/b': 1, 'q1/c': 0 }, y: { 'q1/a': 3, 'q1/b': 1, 'q2/d': 2 }, z: { 'q1/a': 2, 'q1/c': 0 } }),
    })
    expect(report.raters.map((r) => [r.rater, r.judgments])).toEqual([['x', 3], ['y', 3], ['z', 2]])
    const [xy, xz, yz] = report.pairs
    expect(xy).toMatchObject({ a: 'x', b: 'y', n: 2, agreement: 1, kappa: 1, kappaLinear: 1, kappaQuadratic: 1 })
    expect(xz).toMatchObject({ a: 'x', b: 'z', n: 2, agreement: 0.5 })
    expect([xz!.kappa, xz!.kappaLinear, xz!.kappaQuadratic].map((k) => k!.toFixed(12))).toEqual([1 / 3, 2 / 3, 6 / 7].map((k) => k.toFixed(12)))
    expect(xz!.confusion).toEqual([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0]])
    expect(yz).toMatchObject({ a: 'y', b: 'z', n: 1, agreement: 0, kappa: 0 })
    expect(report.fleiss).toEqual({ n: 2, raters: 2, kappa: 1 })
    expect(report.alpha.n).toBe(3)
    expect(report.alpha.nominal).toBeCloseTo(2 / 3, 15)
    expect(report.alpha.ordinal).toBeCloseTo(1 - 27 / 371, 15)
    expect(report.alpha.interval).toBeCloseTo(31 / 34, 15)
    expect(report.queries[0]).toMatchObject({ id: 'q1', n: 3 })
    expect(report.queries[0]!.alpha).toBeCloseTo(1 - 27 / 371, 15)
    expect(report.queries[1]).toEqual({ id: 'q2', n: 0, alpha: null, reason: 'no item was graded by two raters or more' })
  })

  it('Fleiss takes the larger count of raters when two counts are as common', () => {
    // One item by 3 raters, one by 2: a tie, so the item with 3 (all grade 1 but for one 0).
    const report = raterAgreement({ scale: SCALE, judgments: judged({ x: { a: 1, b: 1 }, y: { a: 1, b: 0 }, z: { a: 0 } }) })
    expect(report.fleiss).toMatchObject({ n: 1, raters: 3 })
  })

  it('says why a figure is undefined: fewer than two raters, no shared item, all grades equal', () => {
    const one = raterAgreement({ scale: SCALE, judgments: judged({ x: { a: 1, b: 2 } }) })
    expect(one.pairs).toEqual([])
    expect(one.fleiss).toEqual({ n: 0, raters: null, kappa: null, reason: 'fewer than two raters (only x)' })
    expect(one.alpha).toMatchObject({ n: 0, nominal: null, ordinal: null, interval: null })
    expect(one.alpha.reasons.ordinal).toBe('fewer than two raters (only x)')

    const listed = raterAgreement({ scale: SCALE, raters: [{ name: 'ann', kind: 'person' }], judgments: judged({ x: { a: 1, b: 2 } }) })
    expect(listed.alpha.reasons.nominal).toBe('fewer than two raters (only x)')
    expect(listed.pairs).toMatchObject([{ a: 'ann', b: 'x', n: 0, kappa: null }])

    const apart = raterAgreement({ scale: SCALE, judgments: judged({ x: { a: 1 }, y: { b: 2 } }) })
    expect(apart.pairs).toMatchObject([{ n: 0, agreement: null, kappa: null, reasons: { kappa: 'no item was graded by both raters' } }])

    const flat = raterAgreement({ scale: SCALE, judgments: judged({ x: { a: 2, b: 2 }, y: { a: 2, b: 2 } }) })
    expect(flat.pairs).toMatchObject([{ n: 2, agreement: 1, kappa: null, kappaLinear: null, kappaQuadratic: null }])
    expect(flat.fleiss.kappa).toBeNull()
    expect(flat.alpha.reasons.interval).toMatch(/every grade is the same/)
  })

  it('lists the set\'s raters first with their kind, counts a rater\'s later grade of an item, and leaves out grades off the scale', () => {
    const report = raterAgreement({
      scale: SCALE,
      raters: [{ name: 'y', kind: 'person' }, { name: 'w', kind: 'import' }],
      judgments: [
        { query: 'q', item: 'a', rater: 'x', grade: 0 },
        { query: 'q', item: 'a', rater: 'y', grade: 3 },
        { query: 'q', item: 'a', rater: 'x', grade: 3 },
        { query: 'q', item: 'b', rater: 'x', grade: 7 },
      ],
    })
    expect(report.raters).toEqual([
      { rater: 'y', kind: 'person', judgments: 1 },
      { rater: 'w', kind: 'import', judgments: 0 },
      { rater: 'x', kind: null, judgments: 1 },
    ])
    expect(report.pairs.find((pair) => pair.a === 'y' && pair.b === 'x')).toMatchObject({ n: 1, agreement: 1 })
  })

  it('names a grade off the scale, and a scale that does not go up', () => {
    const bad = AgreementInputSchema.safeParse({ scale: [0, 1, 2, 3], judgments: [{ query: 'q', item: 'a', rater: 'x', grade: 4 }] })
    expect(bad.success).toBe(false)
    expect(bad.error!.issues[0]).toMatchObject({ path: ['judgments', 0, 'grade'], message: '4 is not a grade of the scale (0, 1, 2, 3)' })
    const scale = AgreementInputSchema.safeParse({ scale: [0, 2, 1], judgments: [] })
    expect(scale.error!.issues[0]).toMatchObject({ path: ['scale'], message: 'grades go up one step after another' })
  })

  const judgmentsArb = fc.array(
    fc.record({ query: fc.constantFrom('q1', 'q2'), item: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), rater: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5'), grade: fc.integer({ min: 0, max: 3 }) }),
    { maxLength: 60 },
  )

  it('never gives a kappa above 1', () => {
    fc.assert(
      fc.property(judgmentsArb, (judgments) => {
        const report = raterAgreement({ scale: SCALE, judgments })
        const kappas = [...report.pairs.flatMap((p) => [p.kappa, p.kappaLinear, p.kappaQuadratic]), report.fleiss.kappa]
        return kappas.every((kappa) => kappa === null || kappa <= 1 + 1e-12)
      }),
    )
  })

  it('gives alpha 1 and kappa 1 for raters who grade alike, with at least two distinct grades', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 2, maxLength: 30 }).filter((grades) => new Set(grades).size >= 2),
        fc.integer({ min: 2, max: 5 }),
        (grades, raters) => {
          const judgments = Array.from({ length: raters }, (_, r) => grades.map((grade, i) => ({ query: `q${i % 3}`, item: `d${i}`, rater: `r${r}`, grade }))).flat()
          const report = raterAgreement({ scale: SCALE, judgments })
          expect([report.alpha.nominal, report.alpha.ordinal, report.alpha.interval]).toEqual([1, 1, 1])
          expect(report.pairs.every((p) => p.kappa === 1 && p.kappaLinear === 1 && p.kappaQuadratic === 1)).toBe(true)
          expect(report.fleiss.kappa).toBeCloseTo(1, 12)
        },
      ),
    )
  })

  it('gives the same figures whatever order the judgments come in', () => {
    fc.assert(
      fc.property(judgmentsArb, fc.integer(), (drawn, seed) => {
        // A rater's later grade wins, so each rater grades an item once here.
        const judgments = [...new Map(drawn.map((j) => [`${j.query}/${j.item}/${j.rater}`, j])).values()]
        const shuffled = judgments.map((j, i) => ({ j, key: ((i + 1) * (seed | 1)) % 9973 })).sort((x, y) => x.key - y.key).map(({ j }) => j)
        const a = raterAgreement({ scale: SCALE, judgments })
        const b = raterAgreement({ scale: SCALE, judgments: shuffled })
        const figures = (r: typeof a) => [r.alpha.nominal, r.alpha.ordinal, r.alpha.interval, r.fleiss.kappa].map((x) => (x === null ? null : x.toFixed(10)))
        expect(figures(b)).toEqual(figures(a))
      }),
    )
  })
})
