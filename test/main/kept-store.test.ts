import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EvaluationStore, summaryOf } from '../../src/main/evaluation/evaluation-store'
import { evaluationRunFile } from '../../src/main/evaluation/run-file'
import { ExperimentStore } from '../../src/main/experiments/experiment-store'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { DataStore } from '../../src/main/storage/data-store/data-store'
import { experimentSummary } from '../../src/shared/experiments/experiment-record'
import { scoreRankings, type Evaluation, type QueryRanking } from '../../src/shared/relevance/evaluation'
import { EvaluationHeadSchema, MAX_RANKING_PAGE } from '../../src/shared/relevance/evaluation-head'
import { parseMetrics } from '../../src/shared/relevance/metrics'
import { BIG_SETTINGS, bigEvaluation, bigJudgments, experimentRecord } from '../fixtures/kept-evaluation'
import { call, openCore } from './support'

/**
 * Kept evaluations and experiments in the data folder's database, over a
 * real file and the real store thread: the largest evaluation the app
 * allows kept, listed, opened a page at a time, scored again and written as
 * a TREC run without ever crossing to main whole; the old JSON folders
 * imported once and kept aside, a damaged record among them skipped and said.
 */

describe('kept evaluations and experiments in the data folder database', () => {
  let dir: string
  const open: DataStore[] = []
  const store = () => {
    const data = new DataStore(dir)
    open.push(data)
    return data
  }
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'qe-kept-store-'))
  })
  afterEach(async () => {
    await Promise.all(open.splice(0).map((data) => data.close()))
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps a 3,000-query evaluation at depth 1,000, lists it, opens it a page at a time, scores it and writes its run byte for byte', async () => {
    const big = bigEvaluation(randomUUID(), 3_000, 1_000)
    const data = store()
    const evaluations = new EvaluationStore(data)
    expect(await evaluations.add(big)).toEqual(summaryOf(big))
    expect(await evaluations.list('Big set')).toEqual([summaryOf(big)])
    expect(await evaluations.list('Another set')).toEqual([])

    // The head: everything but the rankings, how many there are, and each query's top items for Judge.
    const head = EvaluationHeadSchema.parse(await evaluations.head(big.id))
    const { rankings, ...rest } = big
    expect(head).toMatchObject({ ...rest, rankingCount: 3_000 })
    expect(head.previews['q0']).toEqual(rankings[0]!.items.slice(0, 10))
    expect(head.previews['q99']).toBeUndefined()

    // Every page in order makes the rankings back, as kept.
    const paged: QueryRanking[] = []
    for (let offset = 0; offset < head.rankingCount; offset += MAX_RANKING_PAGE) {
      const page = (await evaluations.page(big.id, offset, MAX_RANKING_PAGE))!
      expect(page).toMatchObject({ total: 3_000, offset })
      paged.push(...page.rankings)
    }
    expect(paged.length).toBe(3_000)
    // Compared as text: the same rankings, in the same order, every field (a deep compare of 3 M items is slow to no purpose).
    expect(JSON.stringify(paged)).toBe(JSON.stringify(rankings))
    expect(await evaluations.ranking(big.id, 'q2999')).toEqual(rankings[2_999])

    // Scored again in the store's thread: the same figures scoreRankings gives over the whole evaluation.
    const judgments = bigJudgments(3_000).map((judgment) => ({ ...judgment, grade: 3 - judgment.grade }))
    const metrics = parseMetrics(big.scored.metrics.join(','))
    if (!metrics.ok) throw new Error(metrics.message)
    // A rating sent while it scores is journaled between two pages of the scoring, not after all 3,000 rankings.
    let scoredYet = false
    const scoring = evaluations.score(big.id, judgments, undefined, BIG_SETTINGS).then((scored) => ((scoredYet = true), scored))
    await data.call('ratings.add', 'doc', { set: 'Big set', query: 'q0', item: 'i0.0', rater: 'test', grade: 2, at: '2026-01-02T10:00:00.000Z' })
    expect(scoredYet).toBe(false)
    expect(await scoring).toEqual(scoreRankings(rankings, { judgments }, metrics.metrics, BIG_SETTINGS, 10))

    // The run file, written a query at a time in the store's thread: run-file.ts's bytes for the whole evaluation.
    const path = join(dir, 'big.run.txt')
    expect(await evaluations.writeRunFile(big.id, path)).toEqual({ queries: 2_970 })
    expect(readFileSync(path, 'utf8')).toBe(evaluationRunFile(big).text)
    expect(readdirSync(dir).filter((name) => name.endsWith('.part'))).toEqual([])

    expect(await evaluations.remove(big.id)).toBe(true)
    expect(await evaluations.head(big.id)).toBeNull()
    expect(await evaluations.page(big.id, 0, 10)).toBeNull()
  }, 300_000)

  it('leaves no run file half written when a ranking cannot be written, and says why', async () => {
    const evaluation = bigEvaluation(randomUUID(), 3, 5)
    evaluation.rankings[1]!.items[2] = 'two words'
    const evaluations = new EvaluationStore(store())
    await evaluations.add(evaluation)
    const path = join(dir, 'run.txt')
    await expect(evaluations.writeRunFile(evaluation.id, path)).rejects.toThrow(/white space/)
    expect(readdirSync(dir).filter((name) => name.startsWith('run.txt'))).toEqual([])
  })

  it('keeps the newest 100 evaluations and 50 experiments', async () => {
    const data = store()
    const evaluations = new EvaluationStore(data)
    const experiments = new ExperimentStore(data)
    const ids = Array.from({ length: 102 }, () => randomUUID())
    for (const id of ids) await evaluations.add(bigEvaluation(id, 2, 3))
    expect((await evaluations.list()).map((entry) => entry.id)).toEqual(ids.slice(2).reverse())
    expect(await evaluations.page(ids[0]!, 0, 10)).toBeNull()
    const records = Array.from({ length: 52 }, () => experimentRecord(randomUUID(), [ids[100]!, ids[101]!]))
    for (const record of records) await experiments.add(record)
    expect((await experiments.list()).map((entry) => entry.id)).toEqual(records.slice(2).map((record) => record.id).reverse())
    expect(await experiments.get(records[51]!.id)).toEqual(records[51])
    expect(await experiments.get(records[0]!.id)).toBeNull()
  }, 60_000)

  it('imports the old evaluations and experiments folders once, skipping and reporting a damaged record, and keeps the folders aside', async () => {
    const evaluationsDir = join(dir, 'evaluations')
    const experimentsDir = join(dir, 'experiments')
    mkdirSync(evaluationsDir)
    mkdirSync(experimentsDir)
    const older = bigEvaluation(randomUUID(), 4, 20)
    const newer = bigEvaluation(randomUUID(), 5, 20)
    const damaged = bigEvaluation(randomUUID(), 3, 20)
    const records: Evaluation[] = [older, damaged, newer]
    for (const record of records) writeFileSync(join(evaluationsDir, `${record.id}.json`), JSON.stringify(record))
    writeFileSync(join(evaluationsDir, `${damaged.id}.json`), JSON.stringify(damaged).slice(0, 500))
    // The index lists them oldest first; the files' times say otherwise, and the index wins.
    writeFileSync(join(evaluationsDir, 'index.json'), JSON.stringify({ version: 1, records: records.map(summaryOf) }))
    utimesSync(join(evaluationsDir, `${older.id}.json`), new Date(), new Date(Date.UTC(2030, 0, 1)))
    const experiment = experimentRecord(randomUUID(), [older.id, newer.id])
    writeFileSync(join(experimentsDir, `${experiment.id}.json`), JSON.stringify(experiment))
    // An experiments index cut short: the record files are read all the same.
    writeFileSync(join(experimentsDir, 'index.json'), JSON.stringify({ version: 1, records: [experimentSummary(experiment)] }).slice(0, 30))
    const before = Object.fromEntries(readdirSync(evaluationsDir).map((name) => [name, readFileSync(join(evaluationsDir, name), 'utf8')]))

    const first = store()
    const info = await first.info()
    expect(info.imported).toEqual([
      { file: 'evaluations/', records: 2, skipped: 1 },
      { file: 'experiments/', records: 1, skipped: 0 },
    ])
    expect(info.notes).toEqual([
      'Kept evaluations were moved into the data folder\'s database: 2 imported; 1 evaluation file did not read as one and was skipped. They are kept as they were in the "evaluations.imported" folder.',
    ])
    const evaluations = new EvaluationStore(first)
    expect((await evaluations.list()).map((entry) => entry.id)).toEqual([newer.id, older.id])
    const head = (await evaluations.head(older.id))!
    expect(head.rankingCount).toBe(4)
    expect((await evaluations.page(older.id, 0, 10))!.rankings).toEqual(older.rankings)
    expect(await new ExperimentStore(first).get(experiment.id)).toEqual(experiment)

    // The old folders are kept aside as they were, never deleted; nothing is left in their place.
    expect(existsSync(evaluationsDir)).toBe(false)
    expect(existsSync(experimentsDir)).toBe(false)
    const aside = join(dir, 'evaluations.imported')
    expect(Object.fromEntries(readdirSync(aside).map((name) => [name, readFileSync(join(aside, name), 'utf8')]))).toEqual(before)
    expect(readdirSync(join(dir, 'experiments.imported')).sort()).toEqual([`${experiment.id}.json`, 'index.json'].sort())
    await first.close()

    // The same folder back in its place (a restored backup): renamed aside again, never imported twice.
    mkdirSync(evaluationsDir)
    writeFileSync(join(evaluationsDir, `${older.id}.json`), JSON.stringify(older))
    await new EvaluationStore(first).list().catch(() => undefined)
    const again = store()
    expect((await again.info()).imported).toEqual([{ file: 'evaluations/', records: 2, skipped: 0 }])
    expect((await new EvaluationStore(again).list()).map((entry) => entry.id)).toEqual([newer.id, older.id])
    expect(existsSync(join(dir, 'evaluations.imported-2', `${older.id}.json`))).toBe(true)
  }, 60_000)

  it('an app on a data folder of an earlier version lists and opens its kept evaluation, and in Electron writes its run where the save dialog says', async () => {
    const old = bigEvaluation(randomUUID(), 30, 50)
    mkdirSync(join(dir, 'evaluations'))
    writeFileSync(join(dir, 'evaluations', `${old.id}.json`), JSON.stringify(old))
    writeFileSync(join(dir, 'evaluations', 'index.json'), JSON.stringify({ version: 1, records: [summaryOf(old)] }))
    const saves: (string | null)[] = [join(dir, 'chosen.run.txt'), null]
    const dialogs: FileDialogs = { chooseOpen: async () => null, chooseSave: async () => saves.shift() ?? null }
    const core = await openCore(dir, { host: 'electron', dialogs })
    try {
      expect(await call(core, 'eval:list', {})).toEqual([summaryOf(old)])
      const { rankings, ...rest } = old
      expect(await call(core, 'eval:get', { id: old.id })).toMatchObject({ ...rest, rankingCount: 30 })
      expect(await call(core, 'eval:rankings', { id: old.id, offset: 10, limit: 5 })).toEqual({ total: 30, offset: 10, rankings: rankings.slice(10, 15) })
      expect(await call(core, 'eval:ranking', { id: old.id, query: 'q7' })).toEqual(rankings[7])
      // Its set is not in the open workspace: the figures of its own time.
      expect(await call(core, 'eval:scored', { id: old.id })).toEqual(old.scored)
      expect(await call(core, 'eval:run-file', { id: old.id })).toEqual({ fileName: 'chosen.run.txt', queries: 30, downloadUrl: null })
      expect(readFileSync(join(dir, 'chosen.run.txt'), 'utf8')).toBe(evaluationRunFile(old).text)
      // Cancelled in the dialog: nothing written, nothing said.
      expect(await call(core, 'eval:run-file', { id: old.id })).toBeNull()
    } finally {
      await core.close()
    }
  }, 60_000)
})
