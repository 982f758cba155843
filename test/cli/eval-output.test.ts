import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { belowK, clip, evaluationJson, evaluationJUnit, figure, queryLine, settingsText, tableLines, writeTrecRun } from '../../src/cli/commands/eval-output'
import { createRedactor } from '../../src/shared/security/redaction'
import { readJUnit } from '../fixtures/junit'
import { metrics, SMALL_METRICS, SMALL_RANKINGS, SMALL_SCORED_QUERIES, smallEvaluation } from '../fixtures/small-evaluation'

/** What `eval` on one target prints and writes, over the small set whose figures test/fixtures/small-evaluation.ts works out by hand. */

const dir = mkdtempSync(join(tmpdir(), 'qe-cli-eval-output-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('settingsText and belowK', () => {
  it('says the gain, how unjudged items count, the threshold and both depths in words', () => {
    expect(settingsText({ gain: 'exponential', unjudged: 'zero', threshold: 1 }, 100, 10)).toBe(
      'exponential gain (2^g − 1), unjudged as not relevant, relevant from grade 1, depth 100, k for unjudged 10',
    )
    expect(settingsText({ gain: 'linear', unjudged: 'skip', threshold: 2 }, 5, 5)).toBe('linear gain (g), unjudged skipped (taken out of the ranking), relevant from grade 2, depth 5, k for unjudged 5')
    // The grade the metrics use, first, where two raters or more graded; with one, every rule gives that rater's grade.
    const min = { gain: 'linear', unjudged: 'zero', threshold: 1, aggregate: 'min' } as const
    expect(settingsText(min, 10, 10, { raters: 2, adjudicated: false })).toBe(
      "grade: pessimistic (the lowest of the raters' grades), linear gain (g), unjudged as not relevant, relevant from grade 1, depth 10, k for unjudged 10",
    )
    expect(settingsText(min, 10, 10, { raters: 1, adjudicated: false })).toBe('linear gain (g), unjudged as not relevant, relevant from grade 1, depth 10, k for unjudged 10')
  })

  it('names each metric whose k is deeper than the run went, and none at or above it', () => {
    expect(belowK(metrics('ndcg@10,ap,recall@20,p@5'), 5)).toEqual([
      'nDCG@10 (depth 5 is below k: the figure is over the 5 evaluated)',
      'Recall@20 (depth 5 is below k: the figure is over the 5 evaluated)',
    ])
    expect(belowK(metrics('ndcg@10'), 10)).toEqual([])
  })
})

describe('figure and clip', () => {
  it('writes four decimals, and – for no figure', () => {
    expect([figure(0.75), figure(1), figure(0), figure(null), figure(undefined)]).toEqual(['0.7500', '1.0000', '0.0000', '–', '–'])
  })

  it('cuts to max whole code points with … in the last place, and leaves text that fits', () => {
    expect(clip('abcdef', 4)).toBe('abc…')
    expect(clip('abcd', 4)).toBe('abcd')
    expect(clip('😀😀😀', 2)).toBe('😀…')
  })
})

describe('tableLines and queryLine', () => {
  it('prints a row per query (text left, figures right, why a row has none) and the means', () => {
    expect(tableLines(smallEvaluation(), SMALL_METRICS)).toEqual([
      'id    query           P@2      RR  unjudged@2',
      'q1    paris        0.5000  1.0000           0',
      'q2    berlin       0.5000  0.5000           1',
      'q3    oslo              –       –           –  failed: The service answered 504.',
      'mean  (2 queries)  0.5000  0.7500         Σ 1',
    ])
  })

  it('says "no judgments" for a query none of whose items is judged, and clips a long query to 30 characters', () => {
    // q3 has no judgments in the set.
    const rankings = [{ id: 'q3', text: 'the longest query text anyone typed in', items: ['o1'], labels: ['Oslo'], error: null, durationMs: 5 }]
    const [, row, mean] = tableLines(smallEvaluation('Demo', rankings), SMALL_METRICS)
    expect(row).toBe('q3    the longest query text anyone…    –   –           1  no judgments')
    expect(mean).toBe('mean  (0 queries)                       –   –         Σ 1')
  })

  it('prints a line per query as it ends: its results, or why it failed', () => {
    expect(smallEvaluation().rankings.map(queryLine)).toEqual(['✓ q1 paris: 2 results (12 ms)', '✓ q2 berlin: 2 results (30 ms)', '✗ q3 oslo: failed: The service answered 504. (1000 ms)'])
    expect(queryLine({ ...SMALL_RANKINGS[0]!, items: ['p1'], durationMs: 7.6 })).toBe('✓ q1 paris: 1 result (8 ms)')
  })
})

describe('evaluationJson', () => {
  it('holds the set, target, settings, depths, each query and the means', () => {
    expect(evaluationJson(smallEvaluation(), 'world.qxw.json')).toEqual({
      workspace: 'world.qxw.json',
      set: 'Capitals',
      target: 'Demo (the embedded demo service)',
      settings: { gain: 'exponential', unjudged: 'zero', threshold: 1 },
      depth: 2,
      judgeDepth: 2,
      metrics: ['p@2', 'rr'],
      queries: SMALL_SCORED_QUERIES,
      means: { 'p@2': 0.5, rr: 0.75 },
      counted: 2,
      failed: 1,
      unjudgedQueries: 0,
    })
  })
})

describe('evaluationJUnit', () => {
  it('is a testcase per query: a failure for one that failed, the figures of the others in system-out', () => {
    const xml = evaluationJUnit(smallEvaluation(), SMALL_METRICS, 'SETTINGS')
    const report = readJUnit(xml)
    // 12 + 30 + 1000 ms.
    expect(report.suites).toEqual({ name: 'query-explorer.eval.Capitals', tests: '3', failures: '1', errors: '0', time: '1.042' })
    expect(report.suite.name).toBe('Capitals on Demo (the embedded demo service)')
    expect(report.summary).toBe('mean over 2 of 3 queries\nP@2 0.5000\nRR 0.7500\nSETTINGS')
    expect(report.cases.map(({ name, time, failure, out }) => ({ name, time, failure: failure?.message ?? null, out }))).toEqual([
      { name: 'q1 paris', time: '0.012', failure: null, out: 'P@2 0.5000\nRR 1.0000\nunjudged in top 2: 0\nreturned: 2' },
      { name: 'q2 berlin', time: '0.030', failure: null, out: 'P@2 0.5000\nRR 0.5000\nunjudged in top 2: 1\nreturned: 2' },
      { name: 'q3 oslo', time: '1.000', failure: 'The service answered 504.', out: null },
    ])
  })
})

describe('writeTrecRun', () => {
  it('writes the rankings that ran, qid Q0 docid rank score tag, and says how many queries it holds', async () => {
    const path = join(dir, 'out', 'eval.run')
    const said = await writeTrecRun(path, smallEvaluation('Demo, config production'), {})
    expect(said).toBe(`TREC run file: ${path} (2 queries)`)
    expect(readFileSync(path, 'utf8')).toBe(
      ['q1 Q0 p1 1 2 demo-config-production', 'q1 Q0 p2 2 1 demo-config-production', 'q2 Q0 b2 1 2 demo-config-production', 'q2 Q0 b1 2 1 demo-config-production', ''].join('\n'),
    )
  })

  it('refuses an item TREC cannot hold (white space) as bad input naming --trec-run, and writes nothing', async () => {
    const path = join(dir, 'spaced.run')
    const rankings = [{ ...SMALL_RANKINGS[0]!, items: ['p 1'] }]
    await expect(writeTrecRun(path, smallEvaluation('Demo', rankings), {})).rejects.toMatchObject({ lines: [expect.stringMatching(new RegExp(`^--trec-run: .*Nothing was written to ${path}\\.$`))] })
    expect(() => readFileSync(path)).toThrow(/ENOENT/)
  })

  it("never writes a spelling of the run's secrets, whatever a ranking holds", async () => {
    const secrets = createRedactor()
    secrets.add('s3cr3t-token-value')
    const path = join(dir, 'secret.run')
    await writeTrecRun(path, smallEvaluation('Demo', [{ ...SMALL_RANKINGS[0]!, items: ['s3cr3t-token-value'] }]), { secrets })
    expect(readFileSync(path, 'utf8')).not.toContain('s3cr3t-token-value')
  })
})
