import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { depthOf, evalPlan, judgeNextOf, metricsOf, settingsFor } from '../../src/cli/commands/eval-flags'
import { processIo } from '../../src/cli/io'
import { DEFAULT_METRICS } from '../../src/shared/relevance/metrics'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { metrics } from '../fixtures/small-evaluation'
import { WORLD } from './spawn-cli'
import { inputErrorLines, inputErrorLinesOf } from '../fixtures/input-error'
import { useTempDirs, useTempFiles } from '../fixtures/temp-dirs'
import { connection, TEMPLATE, templateWorkspace } from '../fixtures/city-template'

/**
 * The flags `eval` shares between one target and an experiment, and the
 * plan they make with the workspace file: each wrong one refused naming the
 * flag and the rule, before anything is sent (nothing here runs a query).
 */

const tempDir = useTempDirs('qe-cli-eval-flags')
const file = useTempFiles('qe-cli-eval-flags')

const QUERIES = [
  { id: 'q1', text: 'paris' },
  { id: 'q2', text: 'cambridge' },
]
const CITIES = { name: 'Cities', query: TEMPLATE.name, queries: QUERIES, judgments: [{ query: 'q1', item: '2988507', grade: 3 }] }

function workspace(name: string, sets: unknown[] | undefined): string {
  return file(name, JSON.stringify(templateWorkspace(sets)))
}

describe('metricsOf', () => {
  it('is the default metrics when not given, else the list as written', () => {
    expect(metricsOf({})).toEqual(DEFAULT_METRICS)
    expect(metricsOf({ metrics: 'rr, p@5, recall@20' })).toEqual([
      { name: 'rr', k: null },
      { name: 'p', k: 5 },
      { name: 'recall', k: 20 },
    ])
  })

  it('refuses a metric it does not know or one without its depth, saying what to write', async () => {
    expect(inputErrorLines(() => metricsOf({ metrics: 'ndcg@10,map' }))).toEqual(['--metrics: "map" is not a metric here: write ap (the mean of AP over the queries is MAP).'])
    expect(inputErrorLines(() => metricsOf({ metrics: 'p' }))).toEqual(['--metrics: "p" needs a depth: write p@10.'])
  })
})

describe('depthOf', () => {
  it('defaults to the deepest k of the metrics, 10 at least and 1000 at most', () => {
    expect(depthOf({}, metrics('p@5'))).toBe(10)
    expect(depthOf({}, metrics('ap'))).toBe(10)
    expect(depthOf({}, metrics('recall@100,ndcg@10'))).toBe(100)
    expect(depthOf({}, metrics('recall@5000'))).toBe(1000)
  })

  it('takes a whole number from 1 to 1000, and refuses anything else', async () => {
    expect(depthOf({ depth: '5' }, DEFAULT_METRICS)).toBe(5)
    expect(depthOf({ depth: ' 1000 ' }, DEFAULT_METRICS)).toBe(1000)
    for (const text of ['0', '2000', '2.5', 'ten', '']) {
      expect(inputErrorLines(() => depthOf({ depth: text }, DEFAULT_METRICS))).toEqual([`--depth: "${text}" is not a whole number from 1 to 1000 (the results each query asks for).`])
    }
  })
})

describe('judgeNextOf', () => {
  it('is null when not given, else a whole number from 1 to 10000; anything else refused, naming the flag and the rule', () => {
    expect(judgeNextOf({})).toBeNull()
    expect(judgeNextOf({ 'judge-next': '1' })).toBe(1)
    expect(judgeNextOf({ 'judge-next': ' 10000 ' })).toBe(10_000)
    for (const text of ['0', '10001', '2.5', '-3', '1e3', 'x', '']) {
      expect(inputErrorLines(() => judgeNextOf({ 'judge-next': text }))).toEqual([`--judge-next: "${text}" is not a whole number from 1 to 10000 (the unjudged pairs to list).`])
    }
  })
})

describe('settingsFor', () => {
  const set: QuerySet = { ...CITIES, judgments: [{ ...CITIES.judgments[0]!, rater: 'unnamed' }], settings: { gain: 'exponential', unjudged: 'zero', threshold: 1 } }
  const twoRaters: QuerySet = {
    ...set,
    raters: [{ name: 'alice', kind: 'person' }],
    judgments: [
      { query: 'q1', item: '2988507', rater: 'alice', grade: 1 },
      { query: 'q1', item: '2988507', rater: 'bob', grade: 3 },
    ],
  }

  it("lays --aggregate over the set's own rule, which it keeps when not given", () => {
    for (const rule of ['mean', 'median', 'majority', 'max', 'min', 'rater:alice', 'rater:bob']) expect(settingsFor(twoRaters, { aggregate: rule }).aggregate).toBe(rule)
    const pessimistic: QuerySet = { ...twoRaters, settings: { ...set.settings!, aggregate: 'min' } }
    expect(settingsFor(pessimistic, {}).aggregate).toBe('min')
    expect(settingsFor(pessimistic, { aggregate: 'max' }).aggregate).toBe('max')
  })

  it('refuses a rule it does not know, and a rater:NAME the set has not, naming its raters', () => {
    for (const text of ['average', 'MAX', 'rater:', '']) {
      expect(inputErrorLines(() => settingsFor(twoRaters, { aggregate: text }))).toEqual([
        `--aggregate: "${text}" is not a rule for the grade the metrics use: write mean, median, majority (ties to the lower), max (optimistic), min (pessimistic) or rater:NAME (that rater's grades only).`,
      ])
    }
    expect(inputErrorLines(() => settingsFor(twoRaters, { aggregate: 'rater:carol' }))).toEqual(['--aggregate: "carol" is not a rater of the set "Cities" (its raters: "alice", "bob").'])
    expect(inputErrorLines(() => settingsFor({ ...set, judgments: [] }, { aggregate: 'rater:carol' }))).toEqual([
      '--aggregate: "carol" is not a rater of the set "Cities" (it has none: no judgments yet).',
    ])
  })

  it("lays --gain, --unjudged and --threshold over the set's own settings, the aggregate always stated (mean by default)", () => {
    expect(settingsFor(set, {})).toEqual({ gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'mean' })
    expect(settingsFor(set, { gain: 'linear', unjudged: 'skip', threshold: '3' })).toEqual({ gain: 'linear', unjudged: 'skip', threshold: 3, aggregate: 'mean' })
    expect(settingsFor(set, { threshold: '0' }).threshold).toBe(0)
  })

  it('refuses a gain, an unjudged choice or a threshold it cannot use, naming the flag and the choices', async () => {
    expect(inputErrorLines(() => settingsFor(set, { gain: 'quadratic' }))).toEqual(['--gain: "quadratic" is not a gain: write exponential (2^g − 1) or linear (g).'])
    expect(inputErrorLines(() => settingsFor(set, { unjudged: 'ignore' }))).toEqual([
      '--unjudged: "ignore" is not a choice: write zero (an unjudged item counts as not relevant) or skip (it is taken out of the ranking).',
    ])
    for (const text of ['-1', '101', '1.5', 'high']) {
      expect(inputErrorLines(() => settingsFor(set, { threshold: text }))).toEqual([`--threshold: "${text}" is not a grade: write a whole number from 0 to 100 (an item is relevant from this grade up).`])
    }
  })

  it("refuses a threshold above the set's highest grade, quoting the scale", async () => {
    expect(inputErrorLines(() => settingsFor(set, { threshold: '4' }))).toEqual([
      "--threshold: 4 is above the highest grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect), so no item could be relevant.",
    ])
    const yesNo: QuerySet = { ...set, scale: [{ grade: 0, label: 'No' }, { grade: 1, label: 'Yes' }] }
    expect(inputErrorLines(() => settingsFor(yesNo, { threshold: '2' }))).toEqual(["--threshold: 2 is above the highest grade of the set's scale (0 No, 1 Yes), so no item could be relevant."])
  })
})

describe('evalPlan', () => {
  const io = processIo()

  it('plans the first set of the file with its template, the default metrics and depth', async () => {
    const path = workspace('cities.qxw.json', [CITIES, { ...CITIES, name: 'Second set' }])
    const plan = await evalPlan(path, {}, io)
    expect(plan).toMatchObject({ fileName: 'cities.qxw.json', templateConnection: connection.id, metrics: DEFAULT_METRICS, depth: 100, concurrency: 4, maxWait: 3600, judgmentsNote: null })
    expect(plan.set.name).toBe('Cities')
    expect(plan.request.steps).toEqual([{ endpoint: 'search', parameters: { query: '{{query}}' } }])
    expect((await evalPlan(path, { set: 'Second set' }, io)).set.name).toBe('Second set')
  })

  it("replaces the set's judgments with a qrels file's for this run, adding the queries it lacks, and says so", async () => {
    const qrels = file('other.qrels', 'q1 0 111 3\nq2 0 222 1\nq9 0 2988507 2\n')
    const plan = await evalPlan(workspace('cities.qxw.json', [CITIES]), { judgments: qrels }, io)
    expect(plan.set.queries.map((query) => query.id)).toEqual(['q1', 'q2', 'q9'])
    expect(plan.set.judgments).toHaveLength(3)
    expect(plan.judgmentsNote).toBe(`Judgments from ${qrels} (3 judgments, 1 query the set lacks), in place of the set's own for this run`)
    // The file's grades are its rater's, by the file's name: --aggregate names the raters of the judgments the run uses.
    expect(new Set(plan.set.judgments.map((judgment) => judgment.rater))).toEqual(new Set(['other.qrels']))
    expect((await evalPlan(workspace('cities.qxw.json', [CITIES]), { judgments: qrels, aggregate: 'rater:other.qrels' }, io)).settings.aggregate).toBe('rater:other.qrels')
    expect(await inputErrorLinesOf(() => evalPlan(workspace('cities.qxw.json', [CITIES]), { judgments: qrels, aggregate: 'rater:unnamed' }, io))).toEqual([
      '--aggregate: "unnamed" is not a rater of the set "Cities" (its raters: "other.qrels").',
    ])
  })

  it('refuses an unknown set, a file without sets and a set without queries, saying what to do', async () => {
    const path = workspace('cities.qxw.json', [CITIES, { ...CITIES, name: 'Second set' }])
    expect(await inputErrorLinesOf(() => evalPlan(path, { set: 'Nope' }, io))).toEqual(['--set: "Nope" is not a query set of cities.qxw.json (it has: "Cities", "Second set").'])
    const none = await inputErrorLinesOf(() => evalPlan(workspace('none.qxw.json', undefined), {}, io))
    expect(none[0]).toBe('none.qxw.json: the workspace has no query sets ("sets") to evaluate.')
    expect(none[1]).toMatch(/^Add one in the app \(Evaluation, New set\), or write one into the file's "sets"/)
    expect(await inputErrorLinesOf(() => evalPlan(workspace('empty.qxw.json', [{ ...CITIES, queries: [], judgments: [] }]), {}, io))).toEqual([
      '--set: the query set "Cities" of empty.qxw.json has no queries to evaluate: add some first.',
    ])
  })

  it('refuses the shared flags it checks before anything is sent: --concurrency, --max-wait', async () => {
    const path = workspace('cities.qxw.json', [CITIES])
    expect(await inputErrorLinesOf(() => evalPlan(path, { concurrency: '17' }, io))).toEqual(['--concurrency: "17" is not a whole number from 1 to 16.'])
    expect(await inputErrorLinesOf(() => evalPlan(path, { 'max-wait': 'soon' }, io))).toEqual(['--max-wait: "soon" is not a whole number of seconds from 0 to 86400.'])
  })

  it('refuses a judgments file that is missing, of no format it reads, or with a bad grade, naming the line', async () => {
    const path = workspace('cities.qxw.json', [CITIES])
    const missing = join(tempDir(), 'missing.qrels')
    expect((await inputErrorLinesOf(() => evalPlan(path, { judgments: missing }, io)))[0]).toMatch(new RegExp(`^--judgments: "${missing}" cannot be read: ENOENT`))
    const odd = file('notes.md', '# not judgments\n')
    expect((await inputErrorLinesOf(() => evalPlan(path, { judgments: odd }, io)))[0]).toMatch(/^--judgments: ".*notes\.md" is not a judgments file this command reads: a Quepid CSV/)
    const qrels = file('bad.qrels', 'q1 0 111 3\nq2 0 222 7\n')
    const bad = await inputErrorLinesOf(() => evalPlan(path, { judgments: qrels }, io))
    expect(bad[0]).toBe(`--judgments: "${qrels}" (read as trec-qrels) was not used:`)
    expect(bad.join('\n')).toContain('line 2: "7" is not a grade of the set\'s scale (0 Poor, 1 Fair, 2 Good, 3 Perfect)')
    const csv = file('bad.csv', 'query,docid,rating\nparis,123,x\n')
    expect((await inputErrorLinesOf(() => evalPlan(path, { judgments: csv }, io))).join('\n')).toMatch(/line 2: "x" is not a grade/)
  })

  it("reads the example workspace's judged set as the app ships it", async () => {
    const plan = await evalPlan(WORLD, {}, io)
    expect(plan.fileName).toBe('world.qxw.json')
    expect(plan.set.queries.length).toBeGreaterThan(0)
    expect(plan.set.judgments.length).toBeGreaterThan(0)
  })
})
