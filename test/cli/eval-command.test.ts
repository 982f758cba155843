import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SaxesParser } from 'saxes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTag } from '../../src/main/evaluation/run-file'
import { judgeDepthOf, scoreRankings, type QueryRanking } from '../../src/shared/relevance/evaluation'
import { DEFAULT_METRICS, metricKey, parseMetrics } from '../../src/shared/relevance/metrics'
import { settingsOf, type Judgment, type QuerySet } from '../../src/shared/relevance/query-set'
import { cli, cliInProcess, WORLD } from './spawn-cli'
import { TEMPLATE, templateWorkspace, world } from '../fixtures/city-template'

/**
 * `query-explorer eval`: a small workspace of its own (a saved template
 * query and a set of three queries) evaluated on the embedded demo, started
 * inside the command, through the window's own evaluateSet; its figures
 * checked against scoreRankings over the very rankings it wrote as a TREC run
 * file, and by hand (the top item judged 3 gives RR 1).
 */

const dir = mkdtempSync(join(tmpdir(), 'qe-cli-eval-'))
const QUERIES = [
  { id: 'q1', text: 'paris' },
  { id: 'q2', text: 'cambridge' },
  { id: 'q3', text: 'victoria' },
]

function workspaceWith(sets: unknown[] | undefined): Record<string, unknown> {
  return templateWorkspace(sets)
}

function writeWorkspace(name: string, sets: unknown[] | undefined): string {
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(workspaceWith(sets), null, 2))
  return path
}

function set(judgments: Judgment[], name = 'Cities'): QuerySet {
  return { name, query: TEMPLATE.name, queries: QUERIES, judgments }
}

/** `qid Q0 docid rank score tag` lines, read back into each query's ranking. */
function readRun(path: string): { lines: string[][]; items: Map<string, string[]> } {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => line.split(' '))
  const items = new Map<string, string[]>()
  for (const [qid, , docid] of lines) {
    if (!items.has(qid!)) items.set(qid!, [])
    items.get(qid!)!.push(docid!)
  }
  return { lines, items }
}

function rankingsOf(items: Map<string, string[]>, queries = QUERIES): QueryRanking[] {
  return queries.map((query) => ({ id: query.id, text: query.text, items: items.get(query.id) ?? [], labels: [], error: null, durationMs: 0 }))
}

interface EvalJson {
  workspace: string
  set: string
  target: string
  settings: { gain: string; unjudged: string; threshold: number }
  depth: number
  judgeDepth: number
  metrics: string[]
  queries: { id: string; text: string; scores: Record<string, number> | null; unjudged: number; returned: number; error: string | null }[]
  means: Record<string, number | null>
  counted: number
  failed: number
  unjudgedQueries: number
}

function junit(path: string): { suite: Record<string, string>; cases: string[]; failed: string[]; out: string[] } {
  const parser = new SaxesParser()
  let suite: Record<string, string> = {}
  const cases: string[] = []
  const failed: string[] = []
  const out: string[] = []
  let inOut = false
  parser.on('error', (error) => {
    throw error
  })
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>
    if (tag.name === 'testsuite') suite = attributes
    if (tag.name === 'testcase') cases.push(attributes.name ?? '')
    if (tag.name === 'failure') failed.push(cases[cases.length - 1]!)
    if (tag.name === 'system-out') inOut = true
  })
  parser.on('closetag', (tag) => {
    if (tag.name === 'system-out') inOut = false
  })
  parser.on('text', (text) => {
    if (inOut) out.push(text)
  })
  parser.write(readFileSync(path, 'utf8')).close()
  return { suite, cases, failed, out }
}

describe('query-explorer eval', () => {
  /** Each query's ranking on the demo (default configuration, depth 100), as a first run wrote it. */
  let ranked: Map<string, string[]>
  let judged: Judgment[]
  let file: string

  beforeAll(async () => {
    const bare = writeWorkspace('bare.qxw.json', [set([])])
    const runFile = join(dir, 'first.run')
    const first = await cliInProcess(['eval', bare, '--trec-run', runFile])
    expect(first.status, first.stdout + first.stderr).toBe(0)
    ranked = readRun(runFile).items
    for (const query of QUERIES) expect(ranked.get(query.id)?.length, query.text).toBeGreaterThan(3)
    const [p1, , p3] = ranked.get('q1')!
    const [l1, l2] = ranked.get('q2')!
    // paris: its top item Perfect and its third Fair; cambridge: its top item Poor, its second Good; victoria: none.
    judged = [
      { query: 'q1', item: p1!, rater: 'r1', grade: 3 },
      { query: 'q1', item: p3!, rater: 'r1', grade: 1 },
      { query: 'q2', item: l1!, rater: 'r1', grade: 0 },
      { query: 'q2', item: l2!, rater: 'r1', grade: 2 },
    ]
    file = writeWorkspace('cities.qxw.json', [set(judged), set([], 'Second set')])
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('scores each query as the window does (scoreRankings over the same rankings), RR 1 where the top item is judged 3', async () => {
    const run = await cliInProcess(['eval', file, '--json'])
    expect(run.status, run.stdout + run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as EvalJson
    expect(report).toMatchObject({
      workspace: 'cities.qxw.json',
      set: 'Cities',
      target: 'Demo, config default',
      settings: { gain: 'exponential', unjudged: 'zero', threshold: 1 },
      depth: 100,
      judgeDepth: 10,
      metrics: DEFAULT_METRICS.map(metricKey),
      counted: 2,
      failed: 0,
      unjudgedQueries: 1,
    })
    const [paris, cambridge, victoria] = report.queries
    expect(paris).toMatchObject({ id: 'q1', text: 'paris', error: null, returned: ranked.get('q1')!.length })
    expect(paris!.scores!.rr).toBe(1)
    expect(paris!.scores!['p@10']).toBeCloseTo(2 / 10, 12)
    expect(paris!.scores!['recall@100']).toBe(1)
    expect(cambridge!.scores!.rr).toBe(0.5)
    expect(cambridge!.unjudged).toBe(8)
    expect(victoria).toMatchObject({ id: 'q3', scores: null, error: null })

    const expected = scoreRankings(rankingsOf(ranked), set(judged), DEFAULT_METRICS, settingsOf(set(judged)), judgeDepthOf(DEFAULT_METRICS))
    expect(report.means).toEqual(expected.means)
    expect(report.queries.map((query) => query.scores)).toEqual(expected.queries.map((query) => query.scores))
    expect(report.queries.map((query) => query.unjudged)).toEqual(expected.queries.map((query) => query.unjudged))
    for (const value of Object.values(report.means)) expect(value).toBeGreaterThanOrEqual(0)
  })

  it('prints a line per query, the table, the settings and the counts', async () => {
    const run = await cliInProcess(['eval', file])
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('Evaluating "Cities" of cities.qxw.json (3 queries) on Demo (the embedded demo service), config default, to depth 100\n')
    expect(run.stdout).toMatch(/^✓ q1 paris: \d+ results \(\d+ ms\)$/m)
    expect(run.stdout).toMatch(/^id +query +nDCG@10 +P@10 +AP +RR +ERR@10 +Recall@100 +Coverage@10 +unjudged@10$/m)
    expect(run.stdout).toMatch(/^q1 +paris +[\d.]+ +0\.2000 +[\d.]+ +1\.0000 /m)
    expect(run.stdout).toMatch(/^q2 +cambridge +[\d.]+ +[\d.]+ +[\d.]+ +0\.5000 .* 8$/m)
    expect(run.stdout).toMatch(/^q3 +victoria +– +– .* no judgments$/m)
    expect(run.stdout).toMatch(/^mean +\(2 queries\) +[\d.]+ +0\.1500 /m)
    expect(run.stdout).toContain('\nexponential gain (2^g − 1), unjudged as not relevant, relevant from grade 1, depth 100, k for unjudged 10\n')
    expect(run.stdout).toContain('\n2 of 3 queries have judgments; 0 failed\n')
  })

  it('takes --set, --metrics, --gain, --unjudged, --threshold and --depth, and says when a k is deeper than the depth', async () => {
    const run = await cliInProcess(['eval', file, '--set', 'Cities', '--metrics', 'rr, p@5, recall@20', '--gain', 'linear', '--unjudged', 'skip', '--threshold', '2', '--depth', '5', '--json'])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as EvalJson
    expect(report).toMatchObject({ depth: 5, metrics: ['rr', 'p@5', 'recall@20'], settings: { gain: 'linear', unjudged: 'skip', threshold: 2 } })
    // Relevant from grade 2: paris's top item (3) still; cambridge's Poor top item skipped or not, its Good second is rank 2.
    expect(report.queries[0]!.scores!.rr).toBe(1)
    expect(report.queries[1]!.scores!.rr).toBe(0.5)
    const metrics = parseMetrics('rr, p@5, recall@20')
    if (!metrics.ok) throw new Error(metrics.message)
    const five = new Map([...ranked].map(([id, items]) => [id, items.slice(0, 5)]))
    const expected = scoreRankings(rankingsOf(five), set(judged), metrics.metrics, { gain: 'linear', unjudged: 'skip', threshold: 2 }, judgeDepthOf(metrics.metrics))
    expect(report.means).toEqual(expected.means)

    const text = await cliInProcess(['eval', file, '--metrics', 'ndcg@10,recall@20', '--depth', '5'])
    expect(text.status).toBe(0)
    expect(text.stdout).toContain('nDCG@10 (depth 5 is below k: the figure is over the 5 evaluated)')
    expect(text.stdout).toContain('Recall@20 (depth 5 is below k: the figure is over the 5 evaluated)')
  })

  it("replaces the set's judgments with a qrels file's for this run only, new queries joining, the workspace file unchanged", async () => {
    const before = readFileSync(file, 'utf8')
    const qrels = join(dir, 'other.qrels')
    const t1 = ranked.get('q3')![0]!
    const p2 = ranked.get('q1')![1]!
    writeFileSync(qrels, `q1 0 ${p2} 3\nq3 0 ${t1} 3\nq9 0 2988507 2\n`)
    const run = await cliInProcess(['eval', file, '--judgments', qrels, '--json'])
    expect(run.status, run.stdout + run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as EvalJson
    expect(report.queries.map((query) => query.id)).toEqual(['q1', 'q2', 'q3', 'q9'])
    const byId = new Map(report.queries.map((query) => [query.id, query]))
    // paris: its top item is no longer judged, its second is Perfect; cambridge has no judgment left; victoria's top is Perfect.
    expect(byId.get('q1')!.scores!.rr).toBe(0.5)
    expect(byId.get('q2')!.scores).toBeNull()
    expect(byId.get('q3')!.scores!.rr).toBe(1)
    expect(byId.get('q9')!.text).toBe('q9')
    expect(report.unjudgedQueries).toBe(1)
    expect(readFileSync(file, 'utf8')).toBe(before)

    const text = await cliInProcess(['eval', file, '--judgments', qrels])
    expect(text.stdout).toContain(`Judgments from ${qrels} (3 judgments, 1 query the set lacks), in place of the set's own for this run`)
  })

  // Each flag's rule, the set, and a judgments file that cannot be used are eval-flags.test.ts's; here, that the command exits 2 on one.
  it('refuses bad input with exit 2, naming the flag and the rule, nothing on standard output', async () => {
    const run = await cliInProcess(['eval', file, '--depth', '0'])
    expect(run).toEqual({ status: 2, stdout: '', stderr: '--depth: "0" is not a whole number from 1 to 1000 (the results each query asks for).\n' })
  })

  it('writes the rankings as a TREC run file, qid Q0 docid rank score tag', async () => {
    const path = join(dir, 'cities.run')
    const run = await cliInProcess(['eval', file, '--trec-run', path, '--json'])
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as EvalJson
    const { lines, items } = readRun(path)
    const tag = runTag({ targetText: report.target })
    expect(tag).toBe('demo-config-default')
    for (const line of lines) {
      expect(line).toHaveLength(6)
      expect(line[1]).toBe('Q0')
      expect(line[5]).toBe(tag)
    }
    for (const query of report.queries) {
      const own = lines.filter((line) => line[0] === query.id)
      expect(own.map((line) => Number(line[3]))).toEqual(own.map((_, index) => index + 1))
      expect(own.map((line) => Number(line[4]))).toEqual(own.map((_, index) => own.length - index))
      expect(items.get(query.id)).toEqual(ranked.get(query.id))
    }
    expect(run.stderr).toContain(`TREC run file: ${path} (3 queries)`)
  })

  it('writes JUnit with one testcase per query, their figures in system-out', async () => {
    const path = join(dir, 'cities.xml')
    const run = await cliInProcess(['eval', file, '--junit', path])
    expect(run.status, run.stderr).toBe(0)
    const report = junit(path)
    expect(report.suite).toMatchObject({ name: 'Cities on Demo, config default', tests: '3', failures: '0' })
    expect(report.cases).toEqual(['q1 paris', 'q2 cambridge', 'q3 victoria'])
    expect(report.failed).toEqual([])
    expect(report.out.join('\n')).toContain('RR 1.0000')
    expect(report.out.join('\n')).toContain('no judgments: left out of the means')
  })

  it('exits 1 when queries fail to run, a JUnit failure each, and leaves them out of the run file', async () => {
    const xml = join(dir, 'failed.xml')
    const runFile = join(dir, 'failed.run')
    const run = await cliInProcess(['eval', file, '--api', 'no-such-api', '--junit', xml, '--trec-run', runFile, '--json'])
    expect(run.status, run.stdout + run.stderr).toBe(1)
    const report = JSON.parse(run.stdout) as EvalJson
    expect(report.failed).toBe(3)
    expect(report.counted).toBe(0)
    expect(Object.values(report.means)).toEqual(DEFAULT_METRICS.map(() => null))
    for (const query of report.queries) expect(query.error).toEqual(expect.any(String))
    expect(junit(xml)).toMatchObject({ suite: { tests: '3', failures: '3' }, failed: ['q1 paris', 'q2 cambridge', 'q3 victoria'] })
    expect(readFileSync(runFile, 'utf8')).toBe('')
  })

  it('shows a set\'s text from the file through the terminal layer: no control character reaches the terminal', async () => {
    const hostile = writeWorkspace('hostile.qxw.json', [{ ...set([]), name: 'Evil\u001b[2J', queries: [{ id: 'q1', text: 'paris\u001b]0;owned\u0007' }] }])
    const run = await cliInProcess(['eval', hostile])
    // The service refuses a control character in a parameter: the query fails (exit 1), its text still shown escaped.
    expect(run.status, run.stderr).toBe(1)
    expect(run.stdout + run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    expect(run.stdout).toContain('Evaluating "Evil\\x1b[2J" of hostile.qxw.json')
    expect(run.stdout).toMatch(/^✗ q1 paris\\x1b\]0;owned\\x07: failed: /m)
  })

  /**
   * Two raters, worked by hand on each query's first two results (default gain 2^g − 1, L = log2 3):
   *   paris      p1: alice 2, bob 2 (every rule: 2, gain 3); p2: alice 1, bob 3 (mean 2, gain 3; max 3, gain 7; min 1, gain 1)
   *              mean [3, 3]: ideal order, nDCG 1; max [3, 7]: (3 + 7/L) / (7 + 3/L) = 0.8340; min [3, 1]: 1
   *   cambridge  l1: alice 0, bob 1 (mean 0.5, gain √2 − 1, as it is; max 1, gain 1; min 0); l2: both 1 (gain 1)
   *              mean [√2 − 1, 1]: (√2 − 1 + 1/L) / (1 + (√2 − 1)/L) = 0.8286; max [1, 1]: 1; min [0, 1]: (1/L) / 1 = 0.6309
   * rater:bob is max here (bob's grade is the higher of each), rater:alice is min.
   */
  it("uses the grade --aggregate asks for over the set's own, and says which beside the figures, in --json and in an experiment", async () => {
    const [p1, p2] = ranked.get('q1')!
    const [l1, l2] = ranked.get('q2')!
    const grades: [string, string, number, number][] = [
      ['q1', p1!, 2, 2],
      ['q1', p2!, 1, 3],
      ['q2', l1!, 0, 1],
      ['q2', l2!, 1, 1],
    ]
    const judgments = grades.flatMap(([query, item, alice, bob]) => [
      { query, item, rater: 'alice', grade: alice },
      { query, item, rater: 'bob', grade: bob },
    ])
    const path = writeWorkspace('raters.qxw.json', [{ ...set(judgments), raters: [{ name: 'alice', kind: 'person' }, { name: 'bob', kind: 'person' }] }])
    const L = Math.log2(3)
    const expected: Record<string, [number, number]> = {
      mean: [1, (Math.SQRT2 - 1 + 1 / L) / (1 + (Math.SQRT2 - 1) / L)],
      max: [(3 + 7 / L) / (7 + 3 / L), 1],
      min: [1, 1 / L],
      'rater:bob': [(3 + 7 / L) / (7 + 3 / L), 1],
      'rater:alice': [1, 1 / L],
    }
    expect(expected.max![0]).toBeCloseTo(0.834, 3)
    expect(expected.mean![1]).toBeCloseTo(0.8286, 4)
    for (const [rule, [paris, cambridge]] of Object.entries(expected)) {
      const run = await cliInProcess(['eval', path, '--metrics', 'ndcg@10', '--aggregate', rule, '--json'])
      expect(run.status, `${rule}: ${run.stderr}`).toBe(0)
      const report = JSON.parse(run.stdout) as EvalJson & { settings: { aggregate: string } }
      expect(report.settings.aggregate, rule).toBe(rule)
      expect(report.queries[0]!.scores!['ndcg@10'], `${rule} paris`).toBeCloseTo(paris, 12)
      expect(report.queries[1]!.scores!['ndcg@10'], `${rule} cambridge`).toBeCloseTo(cambridge, 12)
    }
    // Without the flag: the set's own rule (mean when it names none), stated in the JSON all the same.
    const own = JSON.parse((await cliInProcess(['eval', path, '--metrics', 'ndcg@10', '--json'])).stdout) as EvalJson & { settings: { aggregate: string } }
    expect(own.settings.aggregate).toBe('mean')
    expect(own.queries[1]!.scores!['ndcg@10']).toBeCloseTo(expected.mean![1], 12)
    const pessimistic = writeWorkspace('pessimistic.qxw.json', [{ ...set(judgments), settings: { gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'min' } }])
    const setRule = JSON.parse((await cliInProcess(['eval', pessimistic, '--metrics', 'ndcg@10', '--json'])).stdout) as EvalJson & { settings: { aggregate: string } }
    expect(setRule.settings.aggregate).toBe('min')
    expect(setRule.queries[1]!.scores!['ndcg@10']).toBeCloseTo(1 / L, 12)
    const overridden = JSON.parse((await cliInProcess(['eval', pessimistic, '--metrics', 'ndcg@10', '--aggregate', 'max', '--json'])).stdout) as EvalJson
    expect(overridden.queries[1]!.scores!['ndcg@10']).toBe(1)

    // The plain output says it where the settings are printed, in words.
    const text = await cliInProcess(['eval', path, '--metrics', 'ndcg@10', '--aggregate', 'max'])
    expect(text.status, text.stderr).toBe(0)
    expect(text.stdout).toContain("\ngrade: optimistic (the highest of the raters' grades), exponential gain (2^g − 1), unjudged as not relevant, relevant from grade 1, depth 10, k for unjudged 10\n")

    // An experiment uses it on both sides, says it under the comparisons and carries it in its JSON.
    const experiment = await cliInProcess(['eval', path, '--metrics', 'ndcg@10', '--aggregate', 'max', '--a', 'config=default', '--b', 'config=default', '--json'])
    expect(experiment.status, experiment.stderr).toBe(0)
    const both = JSON.parse(experiment.stdout) as { settings: { aggregate: string }; sides: { means: Record<string, number> }[] }
    expect(both.settings.aggregate).toBe('max')
    for (const side of both.sides) expect(side.means['ndcg@10']).toBeCloseTo((expected.max![0] + expected.max![1]) / 2, 12)
    const experimentText = await cliInProcess(['eval', path, '--metrics', 'ndcg@10', '--aggregate', 'median', '--a', 'config=default', '--b', 'config=default'])
    expect(experimentText.status, experimentText.stderr).toBe(0)
    expect(experimentText.stdout).toContain("\ngrade: median of the raters' grades, exponential gain (2^g − 1)")

    // A rule it does not know, or a rater the set lacks: exit 2 before anything is sent, naming the set's raters.
    const unknown = await cliInProcess(['eval', path, '--aggregate', 'rater:carol'])
    expect(unknown).toEqual({ status: 2, stdout: '', stderr: '--aggregate: "carol" is not a rater of the set "Cities" (its raters: "alice", "bob").\n' })
    const bad = await cliInProcess(['eval', path, '--aggregate', 'average', '--a', 'config=default', '--b', 'config=production'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toMatch(/^--aggregate: "average" is not a rule for the grade the metrics use: write mean, median, majority/)
  })

  it('says nothing of the aggregate where one rater graded: every rule gives that grade', async () => {
    const run = await cliInProcess(['eval', file, '--metrics', 'ndcg@10', '--aggregate', 'max'])
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('\nexponential gain (2^g − 1), unjudged as not relevant, relevant from grade 1, depth 10, k for unjudged 10\n')
    expect(run.stdout).not.toContain('grade: ')
  })

  /**
   * A set judged all Irrelevant (0) in the top 10 but for paris's rank 2 and cambridge's ranks 5 and 9, nDCG@10,
   * exponential gain (a 3 gains 7), worked by hand. Every figure is 0 now (no relevant item: the ideal DCG is 0).
   *   paris      rank 2 at 3: 7/log2 3 over the ideal 7 = 1/log2 3 = 0.6309; the interval [0, 0.6309], all of it rank 2's.
   *   cambridge  rank 5 alone at 3: 1/log2 6 = 0.3869; ranks 5 and 9: (1/log2 6 + 1/log2 10) / (1 + 1/log2 3) = 0.4218,
   *              the high; the width shared by DCG's discount: rank 5 0.4218 · 0.3869 / (0.3869 + 0.3010) = 0.2372, rank 9 0.1846.
   * So the queue is paris's rank 2, cambridge's 5, its 9; the mean's interval [0, (0.6309 + 0.4218) / 2 = 0.5264].
   */
  it('with --judge-next N, lists the N unjudged pairs that could move a figure most, each with why, and the mean\'s interval', async () => {
    const paris = ranked.get('q1')!.slice(0, 10)
    const cambridge = ranked.get('q2')!.slice(0, 10)
    expect([paris.length, cambridge.length]).toEqual([10, 10])
    const zero = (query: string, items: string[], unjudged: number[]) =>
      items.flatMap((item, index) => (unjudged.includes(index + 1) ? [] : [{ query, item, rater: 'r1', grade: 0 }]))
    const path = writeWorkspace('judge-next.qxw.json', [set([...zero('q1', paris, [2]), ...zero('q2', cambridge, [5, 9])])])
    const parisHigh = 1 / Math.log2(3)
    const cambridgeHigh = (1 / Math.log2(6) + 1 / Math.log2(10)) / (1 + 1 / Math.log2(3))
    const meanHigh = (parisHigh + cambridgeHigh) / 2
    expect(meanHigh).toBeCloseTo(0.5264, 4)
    const rank5 = (cambridgeHigh * (1 / Math.log2(6))) / (1 / Math.log2(6) + 1 / Math.log2(10))
    expect(rank5).toBeCloseTo(0.2372, 4)

    const text = await cliInProcess(['eval', path, '--metrics', 'ndcg@10', '--judge-next', '2'])
    expect(text.status, text.stderr).toBe(0)
    const section = text.stdout.slice(text.stdout.indexOf('\nJudge next'))
    const lines = section.trim().split('\n')
    expect(lines[0]).toBe('Judge next (2 of 3 unjudged pairs that could change a figure)')
    expect(lines[1]).toMatch(/^id +query +item +rank {2}why$/)
    expect(lines[2]).toMatch(new RegExp(`^q1 +paris +${paris[1]} +2 {2}rank 2; could move nDCG@10 by about 0\\.631 on this query$`))
    expect(lines[3]).toMatch(new RegExp(`^q2 +cambridge +${cambridge[4]} +5 {2}rank 5; could move nDCG@10 by about ${rank5.toFixed(3)} on this query$`))
    expect(lines[4]).toBe(`3 unjudged pairs could move the means: nDCG@10 0.000 (between 0.000 and ${meanHigh.toFixed(3)}).`)
    expect(lines[5]).toBe(`nDCG@10 0.0000, between 0.0000 and ${meanHigh.toFixed(4)} once the unjudged top 10 are judged`)
    expect(lines).toHaveLength(6)
    // After the figures: the table and the counts come first, unchanged.
    expect(text.stdout.indexOf('2 of 3 queries have judgments; 0 failed')).toBeLessThan(text.stdout.indexOf('Judge next'))

    const json = await cliInProcess(['eval', path, '--metrics', 'ndcg@10', '--judge-next', '1', '--json'])
    expect(json.status, json.stderr).toBe(0)
    const report = JSON.parse(json.stdout) as EvalJson & { judgeNext: { queue: Record<string, unknown>[]; total: number; summary: string; means: Record<string, unknown> } }
    expect(Object.keys(report)).toEqual(['workspace', 'set', 'target', 'settings', 'depth', 'judgeDepth', 'metrics', 'queries', 'means', 'counted', 'failed', 'unjudgedQueries', 'judgeNext'])
    expect(report.means).toEqual({ 'ndcg@10': 0 })
    expect(report.judgeNext).toEqual({
      queue: [{ query: 'q1', text: 'paris', item: paris[1], ranks: [2], why: 'rank 2; could move nDCG@10 by about 0.631 on this query', priority: expect.closeTo(parisHigh, 12) }],
      total: 3,
      summary: lines[4],
      means: { 'ndcg@10': { current: 0, low: 0, high: expect.closeTo(meanHigh, 12) } },
    })
  })

  it('refuses --judge-next that is not a whole number from 1 to 10000, exit 2 before anything is sent', async () => {
    for (const value of ['0', 'x']) {
      const run = await cliInProcess(['eval', file, '--judge-next', value])
      expect(run).toEqual({ status: 2, stdout: '', stderr: `--judge-next: "${value}" is not a whole number from 1 to 10000 (the unjudged pairs to list).\n` })
    }
  })

  it.runIf(Array.isArray(world.sets) && world.sets.length > 0)('evaluates examples/world.qxw.json spawned as CI runs it, on the default and production configurations', async () => {
    for (const config of ['default', 'production']) {
      const run = await cli(['eval', WORLD, '--json', '--config', config])
      expect(run.status, run.stderr).toBe(0)
      const report = JSON.parse(run.stdout) as EvalJson
      expect(report.target).toBe(`Demo, config ${config}`)
      expect(report.failed).toBe(0)
      expect(report.counted).toBeGreaterThan(0)
      for (const value of Object.values(report.means)) {
        expect(value).toBeGreaterThanOrEqual(0)
        expect(value).toBeLessThanOrEqual(1)
      }
    }
  })
})
