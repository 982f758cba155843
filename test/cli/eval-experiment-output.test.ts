import { describe, expect, it } from 'vitest'
import { attributionTable, columns, comparisonLines, experimentJson, experimentLines, failedLines, gateLine } from '../../src/cli/commands/eval-experiment-output'
import { SMALL_RANKINGS, SMALL_RANKINGS_B, smallEvaluation } from '../fixtures/small-evaluation'
import { smallExperiment } from '../fixtures/small-experiment'

/** What `eval --a … --b …` prints and what its --json holds, over the small experiment (figures in test/fixtures/small-evaluation.ts). */

describe('columns', () => {
  it('left-aligns the first columns, right-aligns the rest, measured in code points', () => {
    expect(columns([['metric', 'A'], ['nDCG@10', '0.5'], ['Ω', '10.25']], 1)).toEqual(['metric       A', 'nDCG@10    0.5', 'Ω        10.25'])
    // A short row is padded as far as it goes; trailing spaces are cut.
    expect(columns([['a', 'bb', 'c'], ['dd']], 2)).toEqual(['a   bb  c', 'dd'])
  })
})

describe('comparisonLines', () => {
  it('prints a row per metric: n, both means, Δ, the interval, W/T/L, p and Holm p, then what they mean', () => {
    expect(comparisonLines(smallExperiment())).toEqual([
      'metric  n       A       B  Δ B − A        95% interval  W / T / L       p  p Holm (2)',
      'P@2     2  0.5000  0.5000  +0.0000  [+0.0000, +0.0000]  0 / 2 / 0  1.0000      1.0000  not significant',
      'RR      2  0.7500  1.0000  +0.2500  [+0.0000, +0.5000]  1 / 1 / 0  1.0000      1.0000  not significant',
      '',
      'A and B: means over the n queries with a figure on both sides; Δ: B − A; W / T / L: queries where B is better, equal, worse.',
      'p: paired randomization test, two-sided, exact; p Holm: adjusted over the 2 comparisons (Holm); significant when p Holm < alpha 0.05.',
      'Interval: 95% percentile bootstrap of the mean delta (not adjusted).',
    ])
  })

  it('says when nothing is paired, and names the level, the method and the family as they are', () => {
    const report = smallExperiment()
    const [p2, rr] = report.stats.comparisons as [(typeof report.stats.comparisons)[number], (typeof report.stats.comparisons)[number]]
    const stats = {
      ...report.stats,
      alpha: 0.1,
      family: 1,
      comparisons: [
        { ...p2, n: 0, baselineMean: null, otherMean: null, meanDelta: null, p: null, pAdjusted: null, interval: null, method: null, ties: 0 },
        { ...rr, method: 'sampled' as const, p: 0.025, pAdjusted: 0.05, significant: true },
      ],
    }
    const lines = comparisonLines({ ...report, stats })
    expect(lines[1]).toBe('P@2     0       –       –        –                   –  0 / 0 / 0       –           –  no paired query')
    expect(lines[2]).toMatch(/ 0\.0250 {6}0\.0500 {6}significant$/)
    expect(lines[0]).toContain('90% interval')
    expect(lines[5]).toBe('p: paired randomization test, two-sided, 10,000 sampled sign flips; p Holm: adjusted over the 1 comparison (Holm); significant when p Holm < alpha 0.1.')
  })
})

describe('failedLines', () => {
  it('lists the queries that failed, by side, with the side named', () => {
    expect(failedLines(smallExperiment())).toEqual(['Failed to run on A (Demo, config default): 1 query, left out of the comparison', '  ✗ q3 oslo: The service answered 504.'])
  })

  it('says nothing when every query ran, and clips a long error to 200 characters', () => {
    const report = smallExperiment()
    expect(failedLines({ ...report, stats: { ...report.stats, failed: [] } })).toEqual([])
    const long = 'x'.repeat(300)
    const failed = [
      { side: 0, id: 'q1', text: 'paris', error: long },
      { side: 0, id: 'q2', text: 'berlin', error: 'timeout' },
    ]
    expect(failedLines({ ...report, stats: { ...report.stats, failed } })).toEqual([
      'Failed to run on B (Demo, config production): 2 queries, left out of the comparison',
      `  ✗ q1 paris: ${'x'.repeat(199)}…`,
      '  ✗ q2 berlin: timeout',
    ])
  })
})

describe('experimentLines', () => {
  it('prints each side, the comparisons, the settings, the failures and each gate, in that order', () => {
    const report = smallExperiment([{ text: 'rr:+0.1', metric: 'rr', margin: 0.1 }], { reused: 1 })
    const lines = experimentLines(report)
    expect(lines.slice(0, 4)).toEqual([
      '',
      'A  Demo, config default: 2 ran, 1 failed, 2 with judgments (1.0 s)',
      'B  Demo, config production: 3 ran, 0 failed, 2 with judgments (0.0 s)',
      '1 page was answered from those already fetched in this run (the same request on the same target)',
    ])
    expect(lines.slice(-6)).toEqual([
      report.settingsLine,
      '',
      ...failedLines(report),
      '',
      'gate rr:+0.1  FAILED (Δ +0.2500 ≥ +0.1, but p Holm 1.0000 ≥ alpha 0.05: the improvement is not shown to be more than noise)',
    ])
    expect(experimentLines(smallExperiment([], { reused: 4 }))[3]).toBe('4 pages were answered from those already fetched in this run (the same request on the same target)')
    expect(experimentLines(smallExperiment())[3]).toBe('')
  })

  it("with attribution, prints each prefix's means and the change from the one before", () => {
    const attribution = [
      { label: '1 search', steps: 1, evaluation: smallEvaluation('A', SMALL_RANKINGS) },
      { label: '2 + population', steps: 2, evaluation: smallEvaluation('A', SMALL_RANKINGS_B) },
    ]
    const lines = experimentLines(smallExperiment([], { attribution }))
    const at = lines.indexOf('Per-step attribution on A (Demo, config default): each prefix of the template, its means, and (in brackets) the change from the prefix before')
    expect(lines.slice(at + 1)).toEqual([
      'step                         P@2                RR  failed',
      '1 search                  0.5000            0.7500       1',
      '2 + population  0.5000 (+0.0000)  1.0000 (+0.2500)       0',
    ])
  })
})

describe('attributionTable', () => {
  it('gives each prefix its means, its change from the prefix before and its failed queries; none without --attribution', () => {
    const attribution = [
      { label: '1 search', steps: 1, evaluation: smallEvaluation('A', SMALL_RANKINGS) },
      { label: '2 + population', steps: 2, evaluation: smallEvaluation('A', SMALL_RANKINGS_B) },
    ]
    const table = attributionTable(smallExperiment([], { attribution }))
    expect(table.map(({ label, steps, means, failed }) => ({ label, steps, means, failed }))).toEqual([
      { label: '1 search', steps: 1, means: { 'p@2': 0.5, rr: 0.75 }, failed: 1 },
      { label: '2 + population', steps: 2, means: { 'p@2': 0.5, rr: 1 }, failed: 0 },
    ])
    expect(table[1]!.change).toEqual({ 'p@2': 0, rr: 0.25 })
    expect(attributionTable(smallExperiment())).toEqual([])
  })
})

describe('experimentJson', () => {
  it('names the sides A and B, the failed side by letter, and each comparison by its label', () => {
    const json = experimentJson(smallExperiment([{ text: 'rr:+0.1', metric: 'rr', margin: 0.1 }])) as Record<string, any>
    expect(json).toMatchObject({ workspace: 'world.qxw.json', set: 'Capitals', depth: 2, judgeDepth: 2, metrics: ['p@2', 'rr'], alpha: 0.05, family: 2, reused: 0 })
    expect(json.sides).toEqual([
      { side: 'A', label: 'Demo, config default', means: { 'p@2': 0.5, rr: 0.75 }, counted: 2, failed: 1 },
      { side: 'B', label: 'Demo, config production', means: { 'p@2': 0.5, rr: 1 }, counted: 2, failed: 0 },
    ])
    expect(json.failed).toEqual([{ side: 'A', id: 'q3', text: 'oslo', error: 'The service answered 504.' }])
    expect(json.deltas.rr).toEqual([
      { id: 'q1', text: 'paris', a: 1, b: 1, delta: 0, unjudged: 0, failed: null },
      { id: 'q2', text: 'berlin', a: 0.5, b: 1, delta: 0.5, unjudged: 1, failed: null },
      { id: 'q3', text: 'oslo', a: null, b: null, delta: null, unjudged: 1, failed: 'A' },
    ])
    expect(json.comparisons.map((c: Record<string, unknown>) => [c.label, 'other' in c])).toEqual([
      ['P@2', false],
      ['RR', false],
    ])
    expect(json.gates).toEqual([{ gate: 'rr:+0.1', metric: 'rr', margin: 0.1, failed: true, meanDelta: 0.25, pAdjusted: 1, reason: 'Δ +0.2500 ≥ +0.1, but p Holm 1.0000 ≥ alpha 0.05: the improvement is not shown to be more than noise' }])
    expect('attribution' in json).toBe(false)
  })

  it('gateLine says passed or FAILED with the reason', () => {
    const [gate] = smallExperiment([{ text: 'p@2:-0.05', metric: 'p@2', margin: -0.05 }]).gates
    expect(gateLine(gate!)).toBe('gate p@2:-0.05  passed (Δ +0.0000, p Holm 1.0000)')
  })
})
