import { describe, expect, it } from 'vitest'
import { alphaOf, experimentFlagsOf, gateResults, gatesOf, pText, signed } from '../../src/cli/commands/eval-gates'
import type { ExperimentStats, MetricComparison } from '../../src/shared/experiments/experiment-record'
import { DEFAULT_METRICS } from '../../src/shared/relevance/metrics'
import { metrics } from '../fixtures/small-evaluation'
import { gatedComparison } from '../fixtures/deltas'
import { inputErrorLines } from '../fixtures/input-error'

/**
 * The flags that make `eval` an experiment (--a, --b, --attribution, --gate,
 * --alpha), each refused with the flag and the rule when wrong; and what a
 * gate says of the statistics, in words a CI log reader can act on.
 */

const EXAMPLE = 'write metric:margin, e.g. ndcg@10:-0.01 (fail when nDCG@10 is significantly more than 0.01 below the baseline).'

describe('alphaOf', () => {
  it('is 0.05 when not given, and takes a decimal number strictly between 0 and 1', () => {
    expect(alphaOf({})).toBe(0.05)
    expect(alphaOf({ alpha: '0.01' })).toBe(0.01)
    expect(alphaOf({ alpha: ' .1 ' })).toBe(0.1)
  })

  it('refuses 0, 1, a percentage, an exponent and words, naming --alpha', () => {
    for (const text of ['0', '1', '5%', '1e-2', '-0.05', 'low', '']) {
      expect(inputErrorLines(() => alphaOf({ alpha: text }))).toEqual([`--alpha: "${text}" is not a significance level: write a decimal number between 0 and 1, both left out (e.g. 0.05).`])
    }
  })
})

describe('gatesOf', () => {
  it('reads each --gate, trimmed, its metric as a key in any case', () => {
    expect(gatesOf({ gate: [' NDCG@10:-0.01 ', 'p@10:0', 'rr:+.05'] }, DEFAULT_METRICS)).toEqual([
      { text: 'NDCG@10:-0.01', metric: 'ndcg@10', margin: -0.01 },
      { text: 'p@10:0', metric: 'p@10', margin: 0 },
      { text: 'rr:+.05', metric: 'rr', margin: 0.05 },
    ])
    expect(gatesOf({}, DEFAULT_METRICS)).toEqual([])
  })

  it('refuses a gate without a margin, with a margin out of [-1, 1] or not a number, saying how to write one', () => {
    expect(inputErrorLines(() => gatesOf({ gate: 'ndcg@10' }, DEFAULT_METRICS))).toEqual([`--gate: "ndcg@10" is not a gate: ${EXAMPLE}`])
    expect(inputErrorLines(() => gatesOf({ gate: 'ndcg@10:-2' }, DEFAULT_METRICS))).toEqual([`--gate: "ndcg@10:-2" is not a gate: the margin is from -1 to 1 (every figure lies in [0, 1]); ${EXAMPLE}`])
    expect(inputErrorLines(() => gatesOf({ gate: 'ndcg@10:lots' }, DEFAULT_METRICS))).toEqual([`--gate: "ndcg@10:lots" is not a gate: "lots" is not a margin (a decimal number such as -0.01); ${EXAMPLE}`])
  })

  it('refuses a gate on a metric the run does not compute, listing those it does', () => {
    expect(inputErrorLines(() => gatesOf({ gate: 'p@5:-0.1' }, DEFAULT_METRICS))).toEqual([
      '--gate: "p@5:-0.1" gates p@5, which is not among the metrics (ndcg@10, p@10, ap, rr, err@10, recall@100, coverage@10): add it to --metrics, or gate one of those.',
    ])
    expect(inputErrorLines(() => gatesOf({ gate: ['ndcg@10:-0.01', 'p@10:0'] }, metrics('ndcg@10')))).toEqual([
      '--gate: "p@10:0" gates p@10, which is not among the metrics (ndcg@10): add it to --metrics, or gate one of those.',
    ])
  })
})

describe('experimentFlagsOf', () => {
  it('is null without --a and --b: eval on one target', () => {
    expect(experimentFlagsOf({}, DEFAULT_METRICS)).toBeNull()
  })

  it('reads both sides, --attribution, the gates and alpha', () => {
    expect(experimentFlagsOf({ a: 'config=default', b: 'connection=Staging,version=2', attribution: true, gate: 'ap:0', alpha: '0.1' }, DEFAULT_METRICS)).toEqual({
      a: { config: 'default' },
      b: { connection: 'Staging', version: '2' },
      attribution: true,
      gates: [{ text: 'ap:0', metric: 'ap', margin: 0 }],
      alpha: 0.1,
    })
  })

  it('refuses one side alone, naming the one missing', () => {
    expect(inputErrorLines(() => experimentFlagsOf({ a: 'config=default' }, DEFAULT_METRICS))).toEqual([
      '--a: an experiment has two sides: give --b too (e.g. --a config=default --b config=production), or neither to evaluate one target.',
    ])
    expect(inputErrorLines(() => experimentFlagsOf({ b: 'config=production' }, DEFAULT_METRICS))[0]).toMatch(/^--b: an experiment has two sides: give --a too/)
  })

  it('refuses --gate, --attribution or --alpha without two sides, naming the first given', () => {
    const twoSides = ': compares two sides: give --a SPEC and --b SPEC too (e.g. --a config=default --b config=production).'
    expect(inputErrorLines(() => experimentFlagsOf({ gate: 'ndcg@10:-0.01' }, DEFAULT_METRICS))).toEqual([`--gate${twoSides}`])
    expect(inputErrorLines(() => experimentFlagsOf({ attribution: true, alpha: '0.01' }, DEFAULT_METRICS))).toEqual([`--attribution${twoSides}`])
    expect(inputErrorLines(() => experimentFlagsOf({ alpha: '0.01' }, DEFAULT_METRICS))).toEqual([`--alpha${twoSides}`])
  })
})

describe('signed and pText', () => {
  it('write a delta with its sign and four decimals, p below 0.0001 as <0.0001, nothing as –', () => {
    expect([signed(0.25), signed(-0.01), signed(0), signed(null)]).toEqual(['+0.2500', '-0.0100', '+0.0000', '–'])
    expect([pText(0.5), pText(0.00009), pText(0.0001), pText(null)]).toEqual(['0.5000', '<0.0001', '0.0001', '–'])
  })
})

describe('gateResults', () => {
  const stats = (...comparisons: MetricComparison[]): ExperimentStats => ({ metrics: comparisons.map((c) => c.metric), alpha: 0.05, family: comparisons.length, comparisons, deltas: {}, failed: [] })
  const gate = (text: string, metric: string, margin: number) => ({ text, metric, margin })

  it('a drop gate (margin ≤ 0) fails only when B is below A by more than the margin and that is more than noise', () => {
    const [failed, noise, held] = gateResults(
      [gate('ndcg@10:-0.01', 'ndcg@10', -0.01), gate('ap:-0.01', 'ap', -0.01), gate('rr:-0.01', 'rr', -0.01)],
      stats(gatedComparison('ndcg@10', -0.3444, 0.0007), gatedComparison('ap', -0.2, 0.2), gatedComparison('rr', 0.02, 0.001)),
    )
    expect(failed).toMatchObject({ failed: true, meanDelta: -0.3444, pAdjusted: 0.0007, reason: 'Δ -0.3444 < -0.01 and p Holm 0.0007 < alpha 0.05: B is below A by more than 0.01, and that is more than noise' })
    expect(noise).toMatchObject({ failed: false, reason: 'Δ -0.2000 < -0.01, but p Holm 0.2000 ≥ alpha 0.05: the drop is not shown to be more than noise' })
    expect(held).toMatchObject({ failed: false, reason: 'Δ +0.0200, p Holm 0.0010' })
  })

  it('an improvement gate (margin > 0) passes only when B improves by the margin and that is more than noise', () => {
    const [passed, short, noise] = gateResults(
      [gate('ndcg@10:0.05', 'ndcg@10', 0.05), gate('ap:0.05', 'ap', 0.05), gate('rr:0.05', 'rr', 0.05)],
      stats(gatedComparison('ndcg@10', 0.1, 0.01), gatedComparison('ap', 0.01, 0.001), gatedComparison('rr', 0.1, 0.3)),
    )
    expect(passed).toMatchObject({ failed: false, reason: 'Δ +0.1000 ≥ +0.05 and p Holm 0.0100 < alpha 0.05' })
    expect(short).toMatchObject({ failed: true, reason: 'Δ +0.0100 < +0.05: B does not improve on A by the margin the gate asks' })
    expect(noise).toMatchObject({ failed: true, reason: 'Δ +0.1000 ≥ +0.05, but p Holm 0.3000 ≥ alpha 0.05: the improvement is not shown to be more than noise' })
  })

  it('fails a gate with nothing paired, or on a metric with no comparison, saying nothing shows the rule holds', () => {
    const [unpaired, missing] = gateResults([gate('ap:-0.01', 'ap', -0.01), gate('rr:-0.01', 'rr', -0.01)], stats(gatedComparison('ap', null, null)))
    const reason = 'no query has a figure on both sides: nothing shows the rule holds'
    expect(unpaired).toEqual({ text: 'ap:-0.01', metric: 'ap', margin: -0.01, failed: true, meanDelta: null, pAdjusted: null, reason })
    expect(missing).toEqual({ text: 'rr:-0.01', metric: 'rr', margin: -0.01, failed: true, meanDelta: null, pAdjusted: null, reason })
  })
})
