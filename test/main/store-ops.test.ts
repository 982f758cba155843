import Database from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { DataStore, storeRequests } from '../../src/main/storage/data-store/data-store'
import { EvaluationsTable } from '../../src/main/storage/data-store/evaluations-table'
import { ExperimentsTable } from '../../src/main/storage/data-store/experiments-table'
import { JudgeCacheTable } from '../../src/main/storage/data-store/judge-cache-table'
import { HistoryTable } from '../../src/main/storage/data-store/history-table'
import { RatingsTable } from '../../src/main/storage/data-store/ratings-table'
import { migrate } from '../../src/main/storage/data-store/schema'
import { answerOp, type StoreTables } from '../../src/main/storage/data-store/store-ops'
import { cutoffKeeping, probabilityBands } from '../../src/shared/experiments/probability-bands'
import { gradesOfSet } from '../../src/shared/relevance/grade-aggregate'
import { useDataStores } from '../fixtures/data-stores'
import { bigEvaluation, bigJudgments } from '../fixtures/kept-evaluation'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * The data store's one list of requests (store-ops.ts): a request names a
 * table's method and is answered with what it returns, over real tables;
 * a name not on the list is refused, in the thread and through DataStore.
 */

const rating = { set: 'Cities', query: 'q1', item: 'paris', rater: 'test', grade: 2, at: '2026-01-02T10:00:00.000Z' }

describe('the data store requests', () => {
  const tempDir = useTempDirs('qe-store-ops')
  const dataStore = useDataStores()
  const cleanups: (() => unknown)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  const tables = (): StoreTables => {
    const db = new Database(':memory:')
    cleanups.push(() => db.close())
    migrate(db)
    return { history: new HistoryTable(db), ratings: new RatingsTable(db), evaluations: new EvaluationsTable(db, 10), experiments: new ExperimentsTable(db, 10), judgeCache: new JudgeCacheTable(db) }
  }

  it('calls the method a request names with its arguments, and answers what it returns', () => {
    const held = tables()
    expect(answerOp(held, 'ratings.add', ['doc', rating])).toBe(1)
    expect(answerOp(held, 'ratings.add', ['doc', { ...rating, grade: 3 }])).toBe(2)
    expect(answerOp(held, 'ratings.since', ['doc', 1])).toEqual([{ ...rating, grade: 3, seq: 2 }])
    expect(answerOp(held, 'ratings.trimTo', ['doc', 1])).toBe(1)
    expect(answerOp(held, 'ratings.since', ['doc', 0])).toEqual([{ ...rating, grade: 3, seq: 2 }])
    expect(answerOp(held, 'evaluations.list', [undefined])).toEqual([])
  })

  it('refuses a name that is not on the list, saying which, and calls nothing', () => {
    const held = tables()
    // A table's own method that main may not ask for, something of every object, a table that is not one, no table at all.
    for (const op of ['evaluations.addWhole', 'history.importOldFile', 'history.constructor', 'history.toString', 'toString.call', 'nothing.add', 'add', '.add', '']) {
      expect(() => answerOp(held, op, [])).toThrow(`the data store has no request "${op}"`)
    }
    expect(answerOp(held, 'evaluations.list', [undefined])).toEqual([])
  })

  it('through DataStore: typed by the method, sent to the store thread, a Map crossing as a Map, an unknown name refused in words', async () => {
    const data = dataStore(tempDir())

    const seq: number = await data.call('ratings.add', 'doc', rating)
    expect(seq).toBe(1)
    expect(await data.call('ratings.since', 'doc', 0)).toEqual([{ ...rating, seq: 1 }])

    // The probability view's grades go to the thread as a Map of Maps, as the table takes them.
    const judgments = bigJudgments(20)
    const evaluation = bigEvaluation('e1', 20, 50, judgments)
    const { rankings, ...start } = evaluation
    await data.call('evaluations.begin', start)
    await data.call('evaluations.addRankings', evaluation.id, rankings)
    await data.call('evaluations.commit', evaluation.id)
    const grades = gradesOfSet({ judgments })
    const answered = rankings.filter((ranking) => ranking.error === null)
    expect(await data.call('evaluations.probability', evaluation.id, grades, 2, 0.9)).toEqual({
      hasProbabilities: true,
      bands: probabilityBands(answered, grades),
      cutoff: cutoffKeeping(answered, grades, 2, 0.9),
    })
    expect(await data.call('evaluations.probability', 'none', grades, 2, 0.9)).toBeNull()

    // A name the list does not hold, as a build whose two sides disagree would send it.
    const sneaked = data.call as (op: string, ...args: unknown[]) => Promise<unknown>
    await expect(sneaked.call(data, 'evaluations.addWhole', evaluation)).rejects.toThrow(`could not be read or written: the data store has no request "evaluations.addWhole"`)
    // Still open: the refusal was the request's alone.
    expect(await data.call('ratings.since', 'doc', 1)).toEqual([])

    // Requests under names of a caller's own (EvaluationStore, ExperimentStore): the same requests.
    const journal = storeRequests(data, { append: 'ratings.add', after: 'ratings.since' })
    expect(await journal.append('doc', { ...rating, item: 'rome' })).toBe(2)
    expect(await journal.after('doc', 1)).toEqual([{ ...rating, item: 'rome', seq: 2 }])
  })
})

/** Each request typed by its method, its arguments and its answer: checked by the typecheck (tsc -p tsconfig.node.json reads the tests), never run. */
const typedRequests = (data: DataStore): Promise<number> => {
  // @ts-expect-error history.add takes the entry and how many to keep
  void data.call('history.add', {} as never)
  // @ts-expect-error ratings.since's seq is a number
  void data.call('ratings.since', 'doc', '1')
  // @ts-expect-error no such request
  void data.call('history.remove', 'e1')
  return data.call('history.clear')
}
void typedRequests
