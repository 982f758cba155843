import { describe, expect, it } from 'vitest'
import { cli, cliInProcess } from './spawn-cli'
import { useTempFiles } from '../fixtures/temp-dirs'
import { TEMPLATE, templateWorkspace } from '../fixtures/city-template'

/**
 * `query-explorer agreement`: real workspace files written to a temp folder,
 * read by the command as a person runs it; the figures checked against a
 * case worked by hand (below), the JSON's exact keys, null figures with
 * their reasons on standard error, and bad input (exit 2).
 */

const file = useTempFiles('qe-cli-agreement')

const QUERIES = [
  { id: 'q1', text: 'paris' },
  { id: 'q2', text: 'cambridge' },
  { id: 'q3', text: 'victoria' },
]

type Line = { query: string; item: string; rater: string; grade: number }

/**
 * The hand-worked case, on the default scale 0–3: ten items, i1–i5 of q1 and
 * i6–i10 of q2, graded by alice and bob; q3's one item by alice alone.
 *
 *   alice  0 1 2 3 3 | 0 1 2 2 3
 *   bob    0 1 2 3 2 | 0 2 2 2 3
 *
 * They differ on i5 (3, 2) and i7 (1, 2): agreement 8/10 = 0.8.
 * Cohen: alice's grades 0–3 are 2, 2, 3, 3 of 10; bob's 2, 1, 5, 2.
 *   Chance p_e = (2·2 + 2·1 + 3·5 + 3·2) / 100 = 0.27; kappa = (0.8 − 0.27) / 0.73 = 53/73 = 0.7260.
 *   Weighted, 1 − Σ w·observed / Σ w·expected over the shares: linear w = |i − j|: observed 2·1/10 = 0.2,
 *   expected Σ |i − j| pa_i pb_j = 0.34 + 0.22 + 0.21 + 0.39 = 1.16, kappa 1 − 0.2/1.16 = 24/29 = 0.8276;
 *   quadratic w = (i − j)²: observed 0.2, expected 0.78 + 0.30 + 0.33 + 0.81 = 2.22, kappa 1 − 0.2/2.22 = 101/111 = 0.9099.
 * Fleiss, 2 raters on the 10 items: P̄ = 0.8; grades over all 20: 4, 3, 8, 5, P_e = 0.2² + 0.15² + 0.4² + 0.25²
 *   = 0.285; kappa = 0.515 / 0.715 = 103/143 = 0.7203. (q3's item has one grade: in no figure.)
 * Krippendorff, n = 20 values, n_c = 4, 3, 8, 5; each disagreeing item puts 1 in o_ck and o_kc.
 *   nominal: 1 − (n − 1) Σ_{c≠k} o_ck / (n² − Σ n_c²) = 1 − 19·4/(400 − 114) = 1 − 76/286 = 0.7343.
 *   interval δ = (c − k)²: observed Σ o δ = 4; expected Σ_{c≠k} n_c n_k δ = 2·(12 + 128 + 180 + 24 + 60 + 40) = 888;
 *     1 − 19·4/888 = 0.9144.
 *   ordinal δ_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)²: δ01 12.25, δ02 81, δ03 240.25, δ12 30.25, δ13 144, δ23 42.25;
 *     observed 2·42.25 + 2·30.25 = 145; expected 2·(12·12.25 + 32·81 + 20·240.25 + 24·30.25 + 15·144 + 40·42.25) = 24240;
 *     1 − 19·145/24240 = 0.8863.
 * Per query, ordinal: q1 (n_c 2, 2, 3, 3; one (3, 2)): δ23 = 9, observed 18, expected 1550, 1 − 9·18/1550 = 0.8955;
 *   q2 (n_c 2, 1, 5, 2; one (1, 2)): δ12 = 9, observed 18, expected 1430, 1 − 9·18/1430 = 0.8867. q3: none (one grade).
 */
const ALICE = [0, 1, 2, 3, 3, 0, 1, 2, 2, 3]
const BOB = [0, 1, 2, 3, 2, 0, 2, 2, 2, 3]
const queryOf = (index: number) => (index < 5 ? 'q1' : 'q2')
const HAND: Line[] = [
  ...ALICE.map((grade, index) => ({ query: queryOf(index), item: `i${index + 1}`, rater: 'alice', grade })),
  ...BOB.map((grade, index) => ({ query: queryOf(index), item: `i${index + 1}`, rater: 'bob', grade })),
  { query: 'q3', item: 'i11', rater: 'alice', grade: 1 },
]
const RATERS = [
  { name: 'alice', kind: 'person' },
  { name: 'bob', kind: 'import' },
]

function set(name: string, judgments: Line[], raters: unknown[] = RATERS): Record<string, unknown> {
  return { name, query: TEMPLATE.name, queries: QUERIES, raters, judgments }
}

function workspace(name: string, sets: unknown[] | undefined): string {
  return file(name, JSON.stringify(templateWorkspace(sets), null, 2))
}

interface AgreementJson {
  raters: { rater: string; kind: string; judgments: number }[]
  pairs: { a: string; b: string; n: number; agreement: number | null; kappa: number | null; kappaLinear: number | null; kappaQuadratic: number | null }[]
  fleiss: { n: number; raters: number | null; kappa: number | null }
  alpha: { n: number; nominal: number | null; ordinal: number | null; interval: number | null }
  queries: { id: string; n: number; alpha: number | null }[]
}

describe('query-explorer agreement', () => {
  it('gives the hand-worked figures as JSON with exactly the keys of issue 35, spawned as a person runs it', async () => {
    const path = workspace('hand.qxw.json', [set('Cities', HAND)])
    const run = await cli(['agreement', path, '--json'])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as AgreementJson
    expect(Object.keys(report)).toEqual(['raters', 'pairs', 'fleiss', 'alpha', 'queries'])
    expect(report.raters).toEqual([
      { rater: 'alice', kind: 'person', judgments: 11 },
      { rater: 'bob', kind: 'import', judgments: 10 },
    ])
    expect(report.pairs).toHaveLength(1)
    const [pair] = report.pairs
    expect(Object.keys(pair!)).toEqual(['a', 'b', 'n', 'agreement', 'kappa', 'kappaLinear', 'kappaQuadratic'])
    expect(pair).toMatchObject({ a: 'alice', b: 'bob', n: 10 })
    expect(pair!.agreement).toBeCloseTo(0.8, 12)
    expect(pair!.kappa).toBeCloseTo(53 / 73, 12)
    expect(pair!.kappaLinear).toBeCloseTo(24 / 29, 12)
    expect(pair!.kappaQuadratic).toBeCloseTo(101 / 111, 12)
    expect(Object.keys(report.fleiss)).toEqual(['n', 'raters', 'kappa'])
    expect(report.fleiss).toMatchObject({ n: 10, raters: 2 })
    expect(report.fleiss.kappa).toBeCloseTo(103 / 143, 12)
    expect(Object.keys(report.alpha)).toEqual(['n', 'nominal', 'ordinal', 'interval'])
    expect(report.alpha.n).toBe(10)
    expect(report.alpha.nominal).toBeCloseTo(1 - 76 / 286, 12)
    expect(report.alpha.ordinal).toBeCloseTo(1 - (19 * 145) / 24240, 12)
    expect(report.alpha.interval).toBeCloseTo(1 - 76 / 888, 12)
    expect(report.queries.map((query) => Object.keys(query))).toEqual([
      ['id', 'n', 'alpha'],
      ['id', 'n', 'alpha'],
      ['id', 'n', 'alpha'],
    ])
    expect(report.queries.map(({ id, n }) => [id, n])).toEqual([
      ['q1', 5],
      ['q2', 5],
      ['q3', 0],
    ])
    expect(report.queries[0]!.alpha).toBeCloseTo(1 - 162 / 1550, 12)
    expect(report.queries[1]!.alpha).toBeCloseTo(1 - 162 / 1430, 12)
    // q3's one item has one grade: no alpha, and why, on standard error; still exit 0.
    expect(report.queries[2]!.alpha).toBeNull()
    expect(run.stderr).toBe('queries[].alpha is null for 1 query (q3): no item was graded by two raters or more.\n')
  })

  it('leaves the adjudicator out, as the window does: settled grades are no reading to agree with', async () => {
    // Settle's grade of i5 and a listed adjudicator's of i7: neither is a rater, the figures are the hand-worked ones.
    const settled = [...HAND, { query: 'q1', item: 'i5', rater: 'adjudication', grade: 3 }, { query: 'q2', item: 'i7', rater: 'lead', grade: 2 }]
    const path = workspace('settled.qxw.json', [set('Cities', settled, [...RATERS, { name: 'lead', kind: 'adjudication' }])])
    const run = await cliInProcess(['agreement', path, '--json'])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as AgreementJson
    expect(report.raters.map((rater) => rater.rater)).toEqual(['alice', 'bob'])
    expect(report.pairs[0]!.kappa).toBeCloseTo(53 / 73, 12)
    expect(report.fleiss.kappa).toBeCloseTo(103 / 143, 12)
    const refused = await cliInProcess(['agreement', path, '--raters', 'alice,lead'])
    expect(refused.status).toBe(2)
    expect(refused.stderr).toContain('"lead"')
  })

  it('prints the raters, the pairs, Fleiss and Krippendorff with their items, and the queries read most differently', async () => {
    const path = workspace('hand.qxw.json', [set('Cities', HAND)])
    const run = await cliInProcess(['agreement', path])
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toBe(
      [
        'Agreement of "Cities" of hand.qxw.json: 2 raters, 21 judgments, scale 0 Poor, 1 Fair, 2 Good, 3 Perfect',
        '',
        'rater  kind    judgments',
        'alice  person         11',
        'bob    import         10',
        '',
        'a      b     n  agreement   kappa  linear  quadratic',
        'alice  bob  10      80.0%  0.7260  0.8276     0.9099',
        '',
        "Fleiss' kappa 0.7203 over the 10 items graded by 2 raters each (the most common number)",
        "Krippendorff's alpha over the 10 items with two grades or more: nominal 0.7343, ordinal 0.8863, interval 0.9144",
        '',
        'The 2 queries with the lowest ordinal alpha (of the 2 queries with one):',
        'query  n   alpha',
        'q2     5  0.8867',
        'q1     5  0.8955',
        '',
      ].join('\n'),
    )
    expect(run.stderr).toBe('queries[].alpha is null for 1 query (q3): no item was graded by two raters or more.\n')
  })

  it('lists at most the 10 queries with the lowest alpha, and says so', async () => {
    // Twelve queries of two items, a (both: Poor) and b (alice: Perfect); bob reads b as Perfect in k1, k3, … and as Fair in k2, k4, ….
    const queries = Array.from({ length: 12 }, (_, index) => ({ id: `k${index + 1}`, text: `city ${index + 1}` }))
    const lines: Line[] = queries.flatMap((query, index) => [
      { query: query.id, item: 'a', rater: 'alice', grade: 0 },
      { query: query.id, item: 'a', rater: 'bob', grade: 0 },
      { query: query.id, item: 'b', rater: 'alice', grade: 3 },
      { query: query.id, item: 'b', rater: 'bob', grade: index % 2 === 0 ? 3 : 1 },
    ])
    const path = workspace('many.qxw.json', [{ ...set('Many', lines), queries }])
    const run = await cliInProcess(['agreement', path])
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('The 10 queries with the lowest ordinal alpha (of the 12 queries with one):\n')
    const listed = run.stdout.split('query  n   alpha\n')[1]!.trim().split('\n')
    expect(listed).toHaveLength(10)
    // The six where bob reads the second item as Fair come first, then four of the six read alike (alpha 1).
    expect(listed.slice(0, 6).map((line) => line.split(/\s+/)[0])).toEqual(['k2', 'k4', 'k6', 'k8', 'k10', 'k12'])
    expect(listed.slice(6).every((line) => line.endsWith('1.0000'))).toBe(true)
  })

  it('keeps only the raters --raters names: with one, every figure is null, why on standard error, exit 0', async () => {
    const carol = { name: 'carol', kind: 'model' }
    const path = workspace('hand.qxw.json', [set('Cities', [...HAND, { query: 'q1', item: 'i1', rater: 'carol', grade: 3 }], [...RATERS, carol])])
    const both = await cliInProcess(['agreement', path, '--raters', ' bob, alice ', '--json'])
    expect(both.status, both.stderr).toBe(0)
    const two = JSON.parse(both.stdout) as AgreementJson
    // In the set's order, whatever the flag's; carol's grade of i1 left out, so the figures are the hand-worked ones.
    expect(two.raters.map((rater) => rater.rater)).toEqual(['alice', 'bob'])
    expect(two.pairs[0]!.kappa).toBeCloseTo(53 / 73, 12)
    expect(two.fleiss).toMatchObject({ n: 10, raters: 2 })

    const run = await cliInProcess(['agreement', path, '--raters', 'alice', '--json'])
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      raters: [{ rater: 'alice', kind: 'person', judgments: 11 }],
      pairs: [],
      fleiss: { n: 0, raters: null, kappa: null },
      alpha: { n: 0, nominal: null, ordinal: null, interval: null },
      queries: [
        { id: 'q1', n: 0, alpha: null },
        { id: 'q2', n: 0, alpha: null },
        { id: 'q3', n: 0, alpha: null },
      ],
    })
    expect(run.stderr.split('\n')).toEqual([
      'fleiss.kappa is null: fewer than two raters (only alice).',
      'alpha.nominal, alpha.ordinal and alpha.interval are null: fewer than two raters (only alice).',
      'queries[].alpha is null for 3 queries (q1, q2, q3): fewer than two raters (only alice).',
      '',
    ])
    const text = await cliInProcess(['agreement', path, '--raters', 'alice'])
    expect(text.status).toBe(0)
    expect(text.stdout).toContain("\nNo pair of raters.\n\nFleiss' kappa – (no item graded by two raters or more)\n")
    expect(text.stdout).toContain("Krippendorff's alpha over the 0 items with two grades or more: nominal –, ordinal –, interval –\n")
    expect(text.stderr).toBe(run.stderr)
  })

  it('gives null kappas and alphas where every grade is the same, saying why, and agreement 100%', async () => {
    const flat: Line[] = ['i1', 'i2', 'i3'].flatMap((item) => ['alice', 'bob'].map((rater) => ({ query: 'q1', item, rater, grade: 2 })))
    const path = workspace('flat.qxw.json', [set('Flat', flat)])
    const run = await cliInProcess(['agreement', path, '--json'])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as AgreementJson
    expect(report.pairs).toEqual([{ a: 'alice', b: 'bob', n: 3, agreement: 1, kappa: null, kappaLinear: null, kappaQuadratic: null }])
    expect(report.fleiss).toEqual({ n: 3, raters: 2, kappa: null })
    expect(report.alpha).toEqual({ n: 3, nominal: null, ordinal: null, interval: null })
    // q2 and q3 have no judgment: not among the queries.
    expect(report.queries).toEqual([{ id: 'q1', n: 3, alpha: null }])
    expect(run.stderr.split('\n')).toEqual([
      'pair alice/bob: kappa, kappaLinear and kappaQuadratic are null: both raters gave every item the same one grade, so chance alone would agree as well.',
      'fleiss.kappa is null: every grade is the same, so chance alone would agree as well.',
      'alpha.nominal, alpha.ordinal and alpha.interval are null: every grade is the same, so there is no disagreement to expect.',
      'queries[].alpha is null for 1 query (q1): every grade is the same, so there is no disagreement to expect.',
      '',
    ])
    const text = await cliInProcess(['agreement', path])
    expect(text.stdout).toContain('alice  bob  3     100.0%      –       –          –\n')
  })

  it("takes Fleiss' kappa over the most common number of raters per item, a tie going to the larger", async () => {
    // x1, x2 by three raters and y1, y2 by two: two items each, so three. x1 0 0 0 (P = 1), x2 3 3 2 (P = (2·1)/(3·2) = 1/3):
    // P̄ = 2/3; grades 0: 3, 2: 1, 3: 2 of 6, P_e = 1/4 + 1/36 + 4/36 = 14/36; kappa = (24/36 − 14/36) / (22/36) = 10/22.
    const lines: Line[] = [
      ...['alice', 'bob', 'carol'].map((rater) => ({ query: 'q1', item: 'x1', rater, grade: 0 })),
      ...(['alice', 'bob', 'carol'] as const).map((rater, index) => ({ query: 'q1', item: 'x2', rater, grade: index < 2 ? 3 : 2 })),
      ...['alice', 'bob'].map((rater) => ({ query: 'q2', item: 'y1', rater, grade: 1 })),
      { query: 'q2', item: 'y2', rater: 'alice', grade: 1 },
      { query: 'q2', item: 'y2', rater: 'bob', grade: 0 },
    ]
    const run = await cliInProcess(['agreement', workspace('three.qxw.json', [set('Three', lines)]), '--json'])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as AgreementJson
    expect(report.fleiss).toMatchObject({ n: 2, raters: 3 })
    expect(report.fleiss.kappa).toBeCloseTo(10 / 22, 12)
    // carol is not listed: a rater the judgments name is a person; alpha is over all four items.
    expect(report.raters).toEqual([
      { rater: 'alice', kind: 'person', judgments: 4 },
      { rater: 'bob', kind: 'import', judgments: 4 },
      { rater: 'carol', kind: 'person', judgments: 2 },
    ])
    expect(report.pairs.map((pair) => [pair.a, pair.b, pair.n])).toEqual([
      ['alice', 'bob', 4],
      ['alice', 'carol', 2],
      ['bob', 'carol', 2],
    ])
    expect(report.alpha.n).toBe(4)
  })

  it('refuses bad input with exit 2, naming it, nothing on standard output', async () => {
    const two = workspace('two.qxw.json', [set('Cities', HAND), set('Flat', [], [])])
    const one = workspace('one.qxw.json', [set('Cities', HAND)])
    const cases: [string[], string][] = [
      [['agreement', two], '--set: two.qxw.json has 2 query sets; name one with --set (it has: "Cities", "Flat").\n'],
      [['agreement', two, '--set', 'Nope'], '--set: "Nope" is not a query set of two.qxw.json (it has: "Cities", "Flat").\n'],
      [['agreement', one, '--raters', 'alice,carol'], '--raters: "carol" is not a rater of the set "Cities" (its raters: "alice", "bob").\n'],
      [['agreement', one, '--raters', 'dan,carol'], '--raters: "dan", "carol" are not raters of the set "Cities" (its raters: "alice", "bob").\n'],
      [['agreement', two, '--set', 'Flat', '--raters', 'alice'], '--raters: "alice" is not a rater of the set "Flat" (it has none: no judgments yet).\n'],
      [['agreement', one, '--raters', ' , '], '--raters: " , " names no rater: write names separated by commas, e.g. --raters alice,bob (its raters: "alice", "bob").\n'],
      [['agreement', workspace('none.qxw.json', undefined)], 'none.qxw.json: the workspace has no query sets ("sets") to report on.\n'],
    ]
    for (const [args, stderr] of cases) {
      const run = await cliInProcess(args)
      expect(run.status, args.join(' ')).toBe(2)
      expect(run.stdout, args.join(' ')).toBe('')
      expect(run.stderr.split('\n')[0] + '\n', args.join(' ')).toBe(stderr)
    }
    const broken = await cliInProcess(['agreement', file('broken.qxw.json', '{ "format": ')])
    expect(broken.status).toBe(2)
    expect(broken.stderr).toMatch(/broken\.qxw\.json/)
    const flag = await cliInProcess(['agreement', one, '--aggregate', 'max'])
    expect(flag.status).toBe(2)
    expect(flag.stderr).toMatch(/^query-explorer: agreement: Unknown option '--aggregate'/)
    expect((await cliInProcess(['agreement'])).stderr).toMatch(/^query-explorer: agreement: missing argument\n/)
  })
})
