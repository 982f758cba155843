import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { evaluationRunFile } from '../../src/main/evaluation/run-file'
import { EvaluationsTable, summaryOf } from '../../src/main/storage/data-store/evaluations-table'
import { scalar } from '../../src/main/storage/data-store/schema'
import { cutoffKeeping, probabilityBands } from '../../src/shared/experiments/probability-bands'
import type { Evaluation } from '../../src/shared/relevance/evaluation'
import { bigEvaluation, bigJudgments, BIG_SETTINGS } from '../fixtures/kept-evaluation'
import { refusal } from '../fixtures/failure-of'
import { useMigratedDb } from '../fixtures/migrated-db'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * Kept evaluations: a row each and their rankings a query a row, kept in
 * parts, read a page at a time, scored and written as a run without being
 * read whole. 100 queries at depth 20 (the 100th failed, as the fixture makes it).
 */

function keepInParts(table: EvaluationsTable, evaluation: Evaluation, part = 30): void {
  const { rankings, ...start } = evaluation
  table.begin(start)
  for (let at = 0; at < rankings.length; at += part) table.addRankings(evaluation.id, rankings.slice(at, at + part))
  table.commit(evaluation.id)
}

describe('EvaluationsTable', () => {
  const migratedDb = useMigratedDb()
  const tempDir = useTempDirs('qe-evaluations-table')
  const evaluation = bigEvaluation('ev1', 100, 20)

  it('keeps an evaluation in parts: listed by its summary, its head with previews to the judge depth, its rankings a page at a time', () => {
    const table = new EvaluationsTable(migratedDb(), 10)
    keepInParts(table, evaluation)
    const summary = summaryOf(evaluation)
    expect(summary).not.toHaveProperty('rankings')
    expect(summary.scored).not.toHaveProperty('queries')
    expect(table.list()).toEqual([summary])
    expect(table.summary('ev1')).toEqual(summary)

    const head = table.head('ev1')!
    expect(head.rankingCount).toBe(100)
    expect(head.previews.q0).toEqual(evaluation.rankings[0]!.items.slice(0, 10))
    expect(head.previews).not.toHaveProperty('q99')
    expect(head.scored).toEqual(evaluation.scored)

    const page = table.rankings('ev1', 95, 10)!
    expect([page.total, page.offset, page.rankings.map((ranking) => ranking.id)]).toEqual([100, 95, ['q95', 'q96', 'q97', 'q98', 'q99']])
    expect(table.ranking('ev1', 'q42')).toEqual(evaluation.rankings[42])
    expect([table.ranking('ev1', 'nope'), table.rankings('nope', 0, 10), table.head('nope'), table.summary('nope')]).toEqual([null, null, null, null])
  })

  it('keeps a whole evaluation the same way as one kept in parts', () => {
    const db = migratedDb()
    const table = new EvaluationsTable(db, 10)
    keepInParts(table, evaluation)
    const whole = new EvaluationsTable(migratedDb(), 10)
    expect(whole.addWhole(evaluation)).toEqual(summaryOf(evaluation))
    expect(whole.head('ev1')).toEqual(table.head('ev1'))
    expect(whole.rankings('ev1', 0, 100)).toEqual(table.rankings('ev1', 0, 100))
  })

  it('refuses a ranking that would not read back, naming it, and an abandoned evaluation leaves nothing', () => {
    const db = migratedDb()
    const table = new EvaluationsTable(db, 10)
    const { rankings, ...start } = evaluation
    table.begin(start)
    table.addRankings('ev1', rankings.slice(0, 2))
    const bad = { ...rankings[2]!, probabilities: [Infinity] }
    expect(refusal(() => table.addRankings('ev1', [bad])).message).toMatch(/^Not kept: the evaluation would not read back \(rankings\.2\.probabilities\.0: /)
    table.abandon('ev1')
    expect(table.list()).toEqual([])
    expect(scalar(db.prepare('SELECT count(*) FROM evaluation_rankings'))).toBe(0)
    expect(() => table.commit('ev1')).toThrow('no evaluation "ev1" is being kept')
  })

  it('rankings of an evaluation left half kept (the app stopped) are cleared when the table opens', () => {
    const db = migratedDb()
    const table = new EvaluationsTable(db, 10)
    const { rankings, ...start } = evaluation
    table.begin(start)
    table.addRankings('ev1', rankings.slice(0, 5))
    new EvaluationsTable(db, 10)
    expect(scalar(db.prepare('SELECT count(*) FROM evaluation_rankings'))).toBe(0)
  })

  it('keeps the newest `keep`, the older going with their rankings; remove says whether there was one', () => {
    const db = migratedDb()
    const table = new EvaluationsTable(db, 2)
    for (const id of ['a', 'b', 'c']) table.addWhole(bigEvaluation(id, 3, 5))
    expect(table.list().map((summary) => summary.id)).toEqual(['c', 'b'])
    expect(scalar(db.prepare("SELECT count(*) FROM evaluation_rankings WHERE evaluation_id = 'a'"))).toBe(0)
    expect([table.remove('b'), table.remove('b')]).toEqual([true, false])
    expect(table.list().map((summary) => summary.id)).toEqual(['c'])
  })

  it('writes the run file a query at a time, the same bytes as the whole evaluation gives', async () => {
    const table = new EvaluationsTable(migratedDb(), 10)
    keepInParts(table, evaluation)
    const dir = tempDir()
    const path = join(dir, 'run.txt')
    const expected = evaluationRunFile(evaluation)
    expect(await table.writeRunFile('ev1', path)).toEqual({ queries: 99 })
    expect(readFileSync(path, 'utf8')).toBe(expected.text)
    expect(readdirSync(dir)).toEqual(['run.txt'])
    expect(await table.writeRunFile('nope', join(dir, 'none.txt'))).toBeNull()
  })

  it('scores the kept rankings with the judgments given, and reads probability against grade', async () => {
    const table = new EvaluationsTable(migratedDb(), 10)
    keepInParts(table, evaluation)
    expect(await table.score('ev1', bigJudgments(100), undefined, BIG_SETTINGS)).toEqual(evaluation.scored)
    const none = await table.score('ev1', [], undefined, BIG_SETTINGS)
    expect([none!.counted, none!.unjudgedQueries]).toEqual([0, 99])
    expect(await table.score('nope', [], undefined, BIG_SETTINGS)).toBeNull()
    // A second rater's grades, settled by one the set lists as its adjudicator ("lead"): the adjudicator's wins, so the figures are r1's again.
    const judgments = bigJudgments(100)
    const lead = judgments.map((judgment) => ({ ...judgment, rater: 'lead' }))
    const other = judgments.map((judgment) => ({ ...judgment, rater: 'r2', grade: 3 - judgment.grade }))
    const raters = [{ name: 'lead', kind: 'adjudication' as const }]
    expect(await table.score('ev1', [...judgments, ...other, ...lead], undefined, BIG_SETTINGS, raters)).toEqual(evaluation.scored)
    expect(await table.score('ev1', [...judgments, ...other, ...lead], undefined, BIG_SETTINGS)).not.toEqual(evaluation.scored)

    const grades = new Map([['q0', new Map([['i0.0', 3]])]])
    // The same figures as over the whole evaluation's rankings that ran.
    const ran = evaluation.rankings.filter((ranking) => ranking.error === null)
    expect(await table.probability('ev1', grades, 1, 0.9)).toEqual({ hasProbabilities: true, bands: probabilityBands(ran, grades), cutoff: cutoffKeeping(ran, grades, 1, 0.9) })
    expect(await table.probability('nope', grades, 1, 0.9)).toBeNull()
  })

  it('a listed head that no longer reads is said, and left as it is', () => {
    const db = migratedDb()
    const table = new EvaluationsTable(db, 10)
    table.addWhole(bigEvaluation('ev2', 2, 3))
    db.prepare("UPDATE evaluations SET head = '{\"id\":\"ev2\"}' WHERE id = 'ev2'").run()
    expect(refusal(() => table.head('ev2'))).toMatchObject({ code: 'not_found', message: expect.stringMatching(/^The kept evaluation "ev2" is listed, but it does not read as one/) })
    expect(table.list()).toHaveLength(1)
  })
})
