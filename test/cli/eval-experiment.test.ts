import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sideRunPath } from '../../src/cli/commands/eval-experiment'
import type { RunningService } from '../../src/service'
import { readJUnit } from '../fixtures/junit'
import { cliInProcess, WORLD } from './spawn-cli'
import { startWorldService } from '../fixtures/world-service'

/**
 * `query-explorer eval --a … --b …`: an experiment on the example
 * workspace's judged set, default against production on the embedded demo
 * (started inside the command), through runExperiment and experimentStats;
 * release gates, their exit statuses and JUnit testcases; per-step
 * attribution; two sides on two connections; bad input.
 */

const AB = ['--a', 'config=default', '--b', 'config=production']
const BA = ['--a', 'config=production', '--b', 'config=default']
const world = JSON.parse(readFileSync(WORLD, 'utf8')) as { sets?: { queries: unknown[] }[]; connections: Record<string, unknown>[] }
const QUERIES = world.sets?.[0]?.queries.length ?? 0

interface Comparison {
  metric: string
  label: string
  n: number
  baselineMean: number | null
  otherMean: number | null
  meanDelta: number | null
  wins: number
  ties: number
  losses: number
  p: number | null
  pAdjusted: number | null
  interval: [number, number] | null
  significant: boolean
}

interface ExperimentJson {
  set: string
  sides: { side: string; label: string; means: Record<string, number | null> }[]
  alpha: number
  family: number
  comparisons: Comparison[]
  deltas: Record<string, { id: string; text: string; a: number | null; b: number | null; delta: number | null; unjudged: number; failed: string | null }[]>
  failed: { side: string; id: string; text: string; error: string }[]
  gates: { gate: string; metric: string; margin: number; failed: boolean; meanDelta: number | null; pAdjusted: number | null }[]
  attribution?: { label: string; steps: number; means: Record<string, number | null>; change: Record<string, number | null> }[]
  judgeNext?: {
    queue: { query: string; text: string; item: string; ranks: (number | null)[]; why: string; priority: number }[]
    total: number
    summary: string
    verdicts: { metric: string; label: string; n: number; delta: { current: number; low: number; high: number }; pAdjusted: { current: number }; signCanChange: boolean; significanceCanChange: boolean; decided: boolean }[]
  }
}

/** The JUnit report at `path`: the suite, the testcases' names, those that failed and their messages. */
function junit(path: string): { suite: Record<string, string>; cases: string[]; failed: string[]; failures: string[] } {
  const { suite, cases } = readJUnit(readFileSync(path, 'utf8'))
  const failed = cases.filter((each) => each.failure !== null)
  return { suite, cases: cases.map((each) => each.name), failed: failed.map((each) => each.name), failures: failed.map((each) => each.failure!.message) }
}

/** A TREC run file's rankings, by query. */
function readRun(path: string): Map<string, string[]> {
  const items = new Map<string, string[]>()
  for (const [qid, , docid] of readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => line.split(' '))) {
    if (!items.has(qid!)) items.set(qid!, [])
    items.get(qid!)!.push(docid!)
  }
  return items
}

const ndcg = (report: ExperimentJson) => report.comparisons.find((comparison) => comparison.metric === 'ndcg@10')!

// The example ships its judged set; were it gone, every case here fails rather than skips.
describe('query-explorer eval --a --b (experiments, release gates)', () => {
  let dir: string
  let service: RunningService
  const secret = 'ci-runner-secret-for-eval-experiment'
  const env = { QUERY_EXPLORER_SECRET_STAGING_EU: secret }
  /** world.qxw.json with a second connection, "Staging EU", on a service this test runs (the same data). */
  let twoConnections: string
  let forward: ExperimentJson
  /** The forward run's rankings, A's and B's, as its --trec-run wrote them (depth 100). */
  let forwardRanked: { a: Map<string, string[]>; b: Map<string, string[]> }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-cli-eval-experiment-'))
    service = await startWorldService('ci-runner', secret)
    const copy = JSON.parse(readFileSync(WORLD, 'utf8')) as typeof world
    copy.connections.push({ ...copy.connections[0], id: 'staging', name: 'Staging EU', clientId: 'ci-runner', authUrl: service.authUrl, queryUrl: service.queryUrl })
    twoConnections = join(dir, 'two.qxw.json')
    writeFileSync(twoConnections, JSON.stringify(copy))
    const run = await cliInProcess(['eval', WORLD, ...AB, '--judge-next', '5', '--trec-run', join(dir, 'forward.run'), '--json'])
    expect(run.status, run.stderr).toBe(0)
    forward = JSON.parse(run.stdout) as ExperimentJson
    forwardRanked = { a: readRun(join(dir, 'forward.a.run')), b: readRun(join(dir, 'forward.b.run')) }
  })
  afterAll(async () => {
    await service?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('compares default (A) with production (B): nDCG@10 0.6116 → 0.9363, Δ ≈ +0.325, significant, more wins than losses', async () => {
    const comparison = ndcg(forward)
    expect(forward.sides.map((side) => side.label)).toEqual(['Demo, config default', 'Demo, config production'])
    expect(comparison).toMatchObject({ label: 'nDCG@10', n: QUERIES, significant: true })
    expect(comparison.baselineMean).toBeCloseTo(0.6116, 4)
    expect(comparison.otherMean).toBeCloseTo(0.9363, 4)
    expect(comparison.meanDelta).toBeCloseTo(0.3247, 3)
    expect(comparison.wins).toBeGreaterThan(comparison.losses)
    expect(comparison.wins + comparison.ties + comparison.losses).toBe(QUERIES)
    expect(comparison.pAdjusted!).toBeLessThan(forward.alpha)
    expect(comparison.pAdjusted!).toBeGreaterThanOrEqual(comparison.p!)
    expect(comparison.interval![0]).toBeGreaterThan(0)
    expect(comparison.interval![0]).toBeLessThanOrEqual(comparison.meanDelta!)
    expect(comparison.interval![1]).toBeGreaterThanOrEqual(comparison.meanDelta!)
    expect(forward).toMatchObject({ alpha: 0.05, family: 7, failed: [], gates: [] })
    expect(forward.attribution).toBeUndefined()
    // Per query: both figures and B − A, whose mean is the comparison's.
    const rows = forward.deltas['ndcg@10']!
    expect(rows).toHaveLength(QUERIES)
    for (const row of rows) expect(row.delta).toBeCloseTo(row.b! - row.a!, 12)
    expect(rows.reduce((sum, row) => sum + row.delta!, 0) / rows.length).toBeCloseTo(comparison.meanDelta!, 12)
  })

  it('with --judge-next, adds judgeNext to the JSON, its current deltas and Holm p-values the comparisons\' own, every key before it unchanged', async () => {
    expect(Object.keys(forward)).toEqual(['workspace', 'set', 'depth', 'judgeDepth', 'settings', 'metrics', 'sides', 'alpha', 'family', 'comparisons', 'deltas', 'failed', 'gates', 'reused', 'judgeNext'])
    const judgeNext = forward.judgeNext!
    expect(judgeNext).toMatchObject({ queue: [], total: 0 })
    expect(judgeNext.summary).toMatch(/^Nothing left to judge changes a verdict: nDCG@10's delta stays between \+0\.325 and \+0\.325, significant either way; /)
    expect(judgeNext.verdicts.map((verdict) => verdict.label)).toEqual(['nDCG@10', 'P@10', 'AP', 'RR', 'ERR@10', 'Recall@100'])
    for (const verdict of judgeNext.verdicts) {
      const comparison = forward.comparisons.find((each) => each.metric === verdict.metric)!
      expect(verdict, verdict.metric).toMatchObject({ n: comparison.n, decided: true, signCanChange: false, significanceCanChange: false })
      expect(verdict.delta.current, verdict.metric).toBeCloseTo(comparison.meanDelta!, 12)
      expect(verdict.pAdjusted.current, verdict.metric).toBe(comparison.pAdjusted)
    }
  })

  /**
   * Judgments for paris alone: every item of A's top 10 and of B's judged Irrelevant (0) but one, X, in B's top 10
   * and not A's. P@10 is 0 on both sides now; X at the top grade makes B's 1/10: the delta goes from 0 to +0.1, its
   * sign can change; one paired query is never significant (p = 1). X is the one pair to judge.
   */
  it('with --judge-next, lists the pairs that could change a verdict: rank on each side and why', async () => {
    const a = forwardRanked.a.get('q01')!.slice(0, 10)
    const b = forwardRanked.b.get('q01')!.slice(0, 10)
    const x = b.find((item) => !a.includes(item))
    expect(x, "an item in B's top 10 and not A's").toBeDefined()
    const qrels = join(dir, 'paris.qrels')
    writeFileSync(qrels, [...new Set([...a, ...b])].filter((item) => item !== x).map((item) => `q01 0 ${item} 0\n`).join(''))
    const run = await cliInProcess(['eval', WORLD, ...AB, '--judgments', qrels, '--metrics', 'p@10', '--judge-next', '3'])
    expect(run.status, run.stdout + run.stderr).toBe(0)
    const rankB = b.indexOf(x!) + 1
    const section = run.stdout.slice(run.stdout.indexOf('\nJudge next')).trim().split('\n')
    expect(section).toEqual([
      'Judge next (1 of 1 unjudged pair that could change a figure)',
      expect.stringMatching(/^id +query +item +rank A +rank B {2}why$/),
      expect.stringMatching(new RegExp(`^q01 +paris +${x} +– +${rankB}  not in A's ranking, rank ${rankB} in B; could move the delta of P@10 by about 0\\.100 on this query$`)),
      '1 unjudged pair could change a verdict. P@10: its delta 0.000 could go between 0.000 and +0.100, not significant either way.',
      'P@10 Δ B − A +0.0000, between +0.0000 and +0.1000 once the unjudged top 10 are judged: could change sign',
    ])
  })

  it("gives each side the figures eval gives that target alone (the same evaluateSet)", async () => {
    const alone = await cliInProcess(['eval', WORLD, '--config', 'production', '--json'])
    expect(alone.status, alone.stderr).toBe(0)
    expect(forward.sides[1]!.means).toEqual((JSON.parse(alone.stdout) as { means: Record<string, number | null> }).means)
  })

  it('prints per metric the means, Δ, interval, W/T/L, p and Holm p; a passing gate exits 0', async () => {
    const run = await cliInProcess(['eval', WORLD, ...AB, '--gate', 'ndcg@10:-0.01', '--judge-next', '5'])
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain('Experiment on "World cities (synthetic judgments)" of world.qxw.json (36 queries), to depth 100\n')
    expect(run.stdout).toMatch(/^metric +n +A +B +Δ B − A +95% interval +W \/ T \/ L +p +p Holm \(7\)$/m)
    expect(run.stdout).toMatch(/^nDCG@10 +36 +0\.6116 +0\.9363 +\+0\.324\d +\[\+0\.\d{4}, \+0\.\d{4}\] +\d+ \/ \d+ \/ \d+ +(<0\.0001|0\.\d{4}) +0\.\d{4} +significant$/m)
    expect(run.stdout).toContain('p Holm: adjusted over the 7 comparisons (Holm)')
    expect(run.stdout).toMatch(/^gate ndcg@10:-0\.01 {2}passed \(Δ \+0\.324\d, p Holm 0\.\d{4}\)$/m)
    expect(run.stdout).not.toContain('Per-step attribution')

    // --judge-next, last: the example judges every item of both sides' top 10, so nothing left to judge changes a verdict.
    const section = run.stdout.slice(run.stdout.indexOf('\nJudge next')).trim().split('\n')
    expect(section[0]).toBe('Judge next (0 of 0 unjudged pairs that could change a figure)')
    expect(section[1]).toMatch(/^Nothing left to judge changes a verdict: nDCG@10's delta stays between \+0\.325 and \+0\.325, significant either way; P@10's delta stays /)
    expect(section[2]).toMatch(/^nDCG@10 Δ B − A \+0\.324\d, between \+0\.324\d and \+0\.324\d once the unjudged top 10 are judged: decided \(significant either way\)$/)
    // A verdict per metric but Coverage, which measures the judging itself.
    expect(section.slice(2).map((line) => line.split(' Δ ')[0])).toEqual(['nDCG@10', 'P@10', 'AP', 'RR', 'ERR@10', 'Recall@100'])
  })

  it('exits 1 when the sides are swapped: the gate FAILED in the text, the JSON and the JUnit report', async () => {
    const xml = join(dir, 'swapped.xml')
    const run = await cliInProcess(['eval', WORLD, ...BA, '--gate', 'ndcg@10:-0.01', '--junit', xml])
    expect(run.status, run.stdout + run.stderr).toBe(1)
    expect(run.stdout).toMatch(/^gate ndcg@10:-0\.01 {2}FAILED \(Δ -0\.324\d < -0\.01 and p Holm 0\.\d{4} < alpha 0\.05: B is below A by more than 0\.01, and that is more than noise\)$/m)
    const report = junit(xml)
    expect(report.suite).toMatchObject({ tests: String(QUERIES + 1), failures: '1' })
    expect(report.cases).toHaveLength(QUERIES + 1)
    expect(report.cases[0]).toBe('q01 paris')
    expect(report.cases[QUERIES]).toBe('gate ndcg@10:-0.01')
    expect(report.failed).toEqual(['gate ndcg@10:-0.01'])
    expect(report.failures[0]).toMatch(/^gate ndcg@10:-0\.01 failed: Δ -0\.324\d < -0\.01 and p Holm/)

    const json = await cliInProcess(['eval', WORLD, ...BA, '--gate', 'ndcg@10:-0.01', '--gate', 'ndcg@10:-0.5', '--json'])
    expect(json.status).toBe(1)
    const gates = (JSON.parse(json.stdout) as ExperimentJson).gates
    expect(gates).toMatchObject([
      { gate: 'ndcg@10:-0.01', metric: 'ndcg@10', margin: -0.01, failed: true },
      // A drop of 0.32 is within a margin of 0.5.
      { gate: 'ndcg@10:-0.5', margin: -0.5, failed: false },
    ])
    expect(gates[0]!.meanDelta).toBeCloseTo(-0.3247, 3)
  })

  it('with --attribution, prints a row per prefix of the template (the example has one step: one row) and its means', async () => {
    const run = await cliInProcess(['eval', WORLD, ...AB, '--attribution', '--metrics', 'ndcg@10,p@10'])
    expect(run.status, run.stderr).toBe(0)
    const table = run.stdout.slice(run.stdout.indexOf('Per-step attribution on A (Demo, config default)'))
    expect(table).toMatch(/^step +nDCG@10 +P@10 +failed\n1: search +0\.6116 +0\.5028 +0\n/m)
    expect(table.split('\n').filter((line) => /^1/.test(line))).toHaveLength(1)

    const json = await cliInProcess(['eval', WORLD, ...AB, '--attribution', '--metrics', 'ndcg@10,p@10', '--json'])
    const report = JSON.parse(json.stdout) as ExperimentJson
    expect(report.attribution).toHaveLength(1)
    expect(report.attribution![0]).toMatchObject({ label: '1: search', steps: 1, change: { 'ndcg@10': null, 'p@10': null } })
    expect(report.attribution![0]!.means).toEqual(report.sides[0]!.means)
  })

  it("writes A's and B's runs to FILE with .a and .b before the extension", async () => {
    const path = join(dir, 'exp.run')
    expect(sideRunPath(path, 'b')).toBe(join(dir, 'exp.b.run'))
    expect(sideRunPath('runs/exp', 'a')).toBe('runs/exp.a')
    const run = await cliInProcess(['eval', WORLD, ...AB, '--metrics', 'ndcg@10', '--trec-run', path])
    expect(run.status, run.stderr).toBe(0)
    expect(existsSync(path)).toBe(false)
    const tags = ['a', 'b'].map((letter) => new Set(readFileSync(join(dir, `exp.${letter}.run`), 'utf8').trim().split('\n').map((line) => line.split(' ')[5])))
    expect([...tags[0]!]).toEqual(['demo-config-default'])
    expect([...tags[1]!]).toEqual(['demo-config-production'])
    expect(run.stdout).toContain(`TREC run file: ${join(dir, 'exp.b.run')} (${QUERIES} queries)`)
  })

  it('exits 1 when queries fail on a side: listed by side, a JUnit failure each, and a gate with nothing paired fails', async () => {
    const xml = join(dir, 'failed.xml')
    const run = await cliInProcess(['eval', WORLD, '--a', 'config=default', '--b', 'api=no-such-api', '--metrics', 'ndcg@10', '--gate', 'ndcg@10:-0.01', '--junit', xml])
    expect(run.status, run.stdout + run.stderr).toBe(1)
    expect(run.stdout).toContain(`Failed to run on B (Demo, API no-such-api, config default): ${QUERIES} queries, left out of the comparison`)
    expect(run.stdout).toMatch(/^ {2}✗ q01 paris: /m)
    expect(run.stdout).toMatch(/^gate ndcg@10:-0\.01 {2}FAILED \(no query has a figure on both sides: nothing shows the rule holds\)$/m)
    const report = junit(xml)
    expect(report.suite).toMatchObject({ tests: String(QUERIES + 1), failures: String(QUERIES + 1) })
    expect(report.failures[0]).toMatch(/^failed on B: /)
  })

  it('runs two sides on two connections, each with its own token; two sides on one connection share one', async () => {
    const before = service.tokenRequestCount()
    const across = await cliInProcess(['eval', twoConnections, '--a', 'config=default', '--b', 'connection=Staging EU,config=default', '--metrics', 'ndcg@10', '--json'], { env })
    expect(across.status, across.stderr).toBe(0)
    const report = JSON.parse(across.stdout) as ExperimentJson
    expect(report.sides.map((side) => side.label)).toEqual(['Demo, config default', 'Staging EU, config default'])
    // The same data and configuration on both: every query ties.
    expect(ndcg(report)).toMatchObject({ meanDelta: 0, wins: 0, losses: 0, ties: QUERIES, significant: false })
    expect(service.tokenRequestCount() - before).toBe(1)

    const shared = await cliInProcess(['eval', twoConnections, '--connection', 'staging', ...AB, '--metrics', 'ndcg@10', '--json'], { env })
    expect(shared.status, shared.stderr).toBe(0)
    expect(service.tokenRequestCount() - before).toBe(2)
    expect(ndcg(JSON.parse(shared.stdout) as ExperimentJson).meanDelta).toBeCloseTo(ndcg(forward).meanDelta!, 12)
    expect(shared.stdout + shared.stderr).not.toContain(secret)
  })

  // The rules of --gate, --alpha and the two sides are eval-gates.test.ts's; here, a side that names what the file lacks.
  it('refuses bad input with exit 2, naming the flag and the rule, before anything is sent', async () => {
    const cases: [string[], RegExp][] = [
      [['--a', 'colour=red', '--b', 'config=production'], /^--a: "colour" is not a side setting/m],
      [['--a', 'config=default', '--b', 'connection=Nope'], /^--b: connection "Nope" is not a connection of world\.qxw\.json/m],
      [['--a', 'config=default', '--b', 'version=two'], /^--b: version "two" is not a version number/m],
    ]
    for (const [args, message] of cases) {
      const run = await cliInProcess(['eval', WORLD, ...args])
      expect(run.status, `${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(2)
      expect(run.stderr, args.join(' ')).toMatch(message)
      expect(run.stdout, args.join(' ')).toBe('')
    }
  })
})
