import { describe, expect, it } from 'vitest'
import { experimentJUnit } from '../../src/cli/commands/eval-experiment-junit'
import { readJUnit } from '../fixtures/junit'
import { smallExperiment } from '../fixtures/small-experiment'

/**
 * An experiment as JUnit XML, as a CI server reads it: one testcase per
 * query and one per gate; a query that failed on a side and a gate that
 * failed are failures, with their numbers.
 */

describe('experimentJUnit', () => {
  it('counts a testcase per query and per gate; failures: the query that failed on A and the gate that failed', () => {
    const xml = experimentJUnit(smallExperiment([{ text: 'rr:+0.1', metric: 'rr', margin: 0.1 }, { text: 'p@2:-0.05', metric: 'p@2', margin: -0.05 }]))
    const report = readJUnit(xml)
    // A ran 12 + 30 + 1000 ms, B 12 + 20 + 8 ms: 1.082 s in all.
    expect(report.suites).toEqual({ name: 'query-explorer.eval.Capitals', tests: '5', failures: '2', errors: '0', time: '1.082' })
    expect(report.suite).toMatchObject({ name: 'Capitals: B Demo, config production against A Demo, config default', tests: '5', failures: '2' })
    expect(report.cases.map((each) => [each.name, each.classname, each.time, each.failure?.type ?? 'passed'])).toEqual([
      ['q1 paris', 'query-explorer.eval.Capitals', '0.024', 'passed'],
      ['q2 berlin', 'query-explorer.eval.Capitals', '0.050', 'passed'],
      ['q3 oslo', 'query-explorer.eval.Capitals', '1.008', 'QueryFailed'],
      ['gate rr:+0.1', 'query-explorer.eval.Capitals.gates', '0.000', 'GateFailed'],
      ['gate p@2:-0.05', 'query-explorer.eval.Capitals.gates', '0.000', 'passed'],
    ])
  })

  it("writes each query's figures on A and B and the deltas, and why a failed query failed", () => {
    const { cases } = readJUnit(experimentJUnit(smallExperiment()))
    expect(cases[1]!.out).toBe('P@2  A 0.5000  B 0.5000  Δ +0.0000\nRR  A 0.5000  B 1.0000  Δ +0.5000\nunjudged in either top 2: 1')
    expect(cases[2]!.failure).toEqual({ message: 'failed on A: The service answered 504.', type: 'QueryFailed', text: 'failed on A: The service answered 504.' })
  })

  it("gives a gate's rule and numbers: in the failure when it failed, in system-out when it passed", () => {
    const { cases } = readJUnit(experimentJUnit(smallExperiment([{ text: 'rr:+0.1', metric: 'rr', margin: 0.1 }, { text: 'p@2:-0.05', metric: 'p@2', margin: -0.05 }])))
    const reason = 'Δ +0.2500 ≥ +0.1, but p Holm 1.0000 ≥ alpha 0.05: the improvement is not shown to be more than noise'
    expect(cases[3]!.failure).toEqual({
      message: `gate rr:+0.1 failed: ${reason}`,
      type: 'GateFailed',
      text: `gate rr:+0.1  FAILED (${reason})\nmetric rr, margin +0.1000, mean delta +0.2500, p Holm 1.0000, alpha 0.05`,
    })
    expect(cases[4]!.out).toBe('gate p@2:-0.05  passed (Δ +0.0000, p Holm 1.0000)\nmetric p@2, margin -0.0500, mean delta +0.0000, p Holm 1.0000, alpha 0.05')
  })

  it('sums up both sides, each comparison and alpha in the suite', () => {
    expect(readJUnit(experimentJUnit(smallExperiment())).summary.split('\n')).toEqual([
      'A: Demo, config default',
      'B: Demo, config production',
      'P@2  A 0.5000  B 0.5000  Δ +0.0000  0 W / 2 T / 0 L  p 1.0000  p Holm (2) 1.0000',
      'RR  A 0.7500  B 1.0000  Δ +0.2500  1 W / 1 T / 0 L  p 1.0000  p Holm (2) 1.0000',
      'alpha 0.05',
      'exponential gain (2^g − 1), unjudged as not relevant, relevant from grade 1, depth 2, k for unjudged 2',
    ])
  })

  it('stays well-formed XML holding the exact text of a set, a query and an error with markup in them', () => {
    const report = smallExperiment([], { set: 'A&B <"sets">' })
    const [a, b] = report.sides
    const odd = (ranking: (typeof a.rankings)[number]) => (ranking.id === 'q3' ? { ...ranking, text: 'o"s<l>o & ]]>' } : ranking)
    const stats = { ...report.stats, failed: [{ side: -1, id: 'q3', text: 'o"s<l>o & ]]>', error: '<html>504 & "gone"</html>\nsecond line' }] }
    const xml = experimentJUnit({ ...report, stats, sides: [{ ...a, rankings: a.rankings.map(odd) }, { ...b, rankings: b.rankings.map(odd) }] })
    const parsed = readJUnit(xml)
    expect(parsed.suites.name).toBe('query-explorer.eval.A&B <"sets">')
    expect(parsed.cases[2]!.name).toBe('q3 o"s<l>o & ]]>')
    // The message is the error's first line; the whole error is the failure's text.
    expect(parsed.cases[2]!.failure).toMatchObject({ message: 'failed on A: <html>504 & "gone"</html>', text: 'failed on A: <html>504 & "gone"</html>\nsecond line' })
  })
})
