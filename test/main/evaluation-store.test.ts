import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EvaluationStore, summaryOf } from '../../src/main/evaluation/evaluation-store'
import { evaluationRunFile } from '../../src/main/evaluation/run-file'
import { useDataStores } from '../fixtures/data-stores'
import { failureOf } from '../fixtures/failure-of'
import { bigEvaluation, bigJudgments, BIG_SETTINGS } from '../fixtures/kept-evaluation'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * Kept evaluations through the data folder's database on its thread: sent
 * in parts, read back as a head and pages, scored and written there; one
 * refused half way leaves nothing. (A 3,000-query evaluation: kept-store.test.ts.)
 */

describe('EvaluationStore', () => {
  const tempDir = useTempDirs('qe-evaluation-store')
  const dataStore = useDataStores()
  // 60 queries: three parts of 25 on the way to the thread.
  const evaluation = bigEvaluation('ev1', 60, 12)

  it('keeps an evaluation in parts and reads it back a piece at a time', async () => {
    const dir = tempDir()
    const store = new EvaluationStore(dataStore(dir))
    expect(await store.add(evaluation)).toEqual(summaryOf(evaluation))
    expect(await store.list()).toEqual([summaryOf(evaluation)])
    expect(await store.summary('ev1')).toEqual(summaryOf(evaluation))
    expect((await store.head('ev1'))?.rankingCount).toBe(60)
    expect(await store.page('ev1', 50, 5)).toEqual({ total: 60, offset: 50, rankings: evaluation.rankings.slice(50, 55) })
    expect(await store.ranking('ev1', 'q7')).toEqual(evaluation.rankings[7])
    expect(await store.score('ev1', bigJudgments(60), undefined, BIG_SETTINGS)).toEqual(evaluation.scored)
    const path = join(dir, 'run.txt')
    expect(await store.writeRunFile('ev1', path)).toEqual({ queries: 60 })
    expect(readFileSync(path, 'utf8')).toBe(evaluationRunFile(evaluation).text)
    expect([await store.remove('ev1'), await store.list()]).toEqual([true, []])
  })

  it('one refused half way (a ranking past the first part that would not read back) is abandoned: nothing listed, nothing left', async () => {
    const store = new EvaluationStore(dataStore(tempDir()))
    const rankings = evaluation.rankings.map((ranking, index) => (index === 40 ? { ...ranking, probabilities: [Number.NaN] } : ranking))
    const error = await failureOf(store.add({ ...evaluation, rankings }))
    expect(error.message).toMatch(/^Not kept: the evaluation would not read back \(rankings\.40\.probabilities\.0: /)
    expect(await store.list()).toEqual([])
    expect(await store.page('ev1', 0, 10)).toBeNull()
    // The same id keeps afterwards, whole.
    expect((await store.add(evaluation)).id).toBe('ev1')
  })
})
