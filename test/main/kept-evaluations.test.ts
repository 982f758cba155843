import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import Database from 'libsql'
import { EvaluationStore } from '../../src/main/evaluation/evaluation-store'
import { DATA_STORE_FILE, DataStore } from '../../src/main/storage/data-store/data-store'
import { EvalRunStatusSchema } from '../../src/shared/ipc/relevance-contract'
import { ExperimentRunStatusSchema } from '../../src/shared/ipc/experiment-contract'
import { ExperimentRecordSchema } from '../../src/shared/experiments/experiment-record'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import type { Evaluation } from '../../src/shared/relevance/evaluation'
import { serverWorkspace } from '../fixtures/server-workspace'
import { keptEvaluation } from './kept-evaluation'
import { call, failure, keychainMissing, openCore, startServer, untilEnded, type TestServer, uploadText } from './support'

/**
 * Nothing finished is lost: an evaluation against a hostile server on
 * 127.0.0.1 that answers one query with a probability of `1e999` (read as
 * Infinity, written by JSON as null) and another with an item key of 2,001
 * characters is kept in a form its own schema reads back, so eval:get opens
 * it and its figures say what happened; and a kept record damaged in the
 * database is said to be so, not shown as missing.
 */

const missing = await keychainMissing()
const LONG_KEY = 'x'.repeat(2_001)

function page(items: string[]): string {
  return `{"offset":0,"count":${items.length},"type":["OBJ"],"items":[${items.join(',')}]}`
}
const item = (rank: number, id: string, probability: string) => `{"rank":${rank},"probability":${probability},"tuple":[{"id":"${id}","class":["C"]}]}`

/** Each query's page, by the word its text holds. */
function answer(url: string): string {
  if (url.includes('infinite')) return page([item(1, 'a', '0.9'), item(2, 'b', '1e999'), item(3, 'c', '0.5')])
  if (url.includes('long')) return page([item(1, 'a', '0.9'), item(2, LONG_KEY, '0.8'), item(3, 'c', '0.5')])
  return page([item(1, 'a', '0.9'), item(2, 'b', '0.8'), item(3, 'c', '0.5')])
}

const workspaceFile = (origin: string) =>
  JSON.stringify(
    serverWorkspace(origin, [
      {
        name: 'Hostile',
        queries: [
          { id: 'q1', text: 'infinite' },
          { id: 'q2', text: 'long' },
          { id: 'q3', text: 'plain' },
        ],
        judgments: ['q1', 'q2', 'q3'].map((query) => ({ query, item: 'a', grade: 3 })),
      },
      { name: 'Plain', queries: [{ id: 'q3', text: 'plain' }], judgments: [{ query: 'q3', item: 'a', grade: 3 }] },
    ]),
  )

describe.skipIf(missing !== null)('kept evaluations: what finished can be opened', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qe-kept-'))
  let server: TestServer
  let core: AppCore
  let connection: ConnectionView

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const body = answer(decodeURIComponent(req.url ?? ''))
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    })
    core = await openCore(dataDir, { keychainService: `query-explorer-kept-${process.pid}` })
    connection = await call<ConnectionView>(core, 'connections:save', { name: 'Hostile', authUrl: '', queryUrl: `${server.origin}/query`, workspace: 'world', api: 'places', clientId: '' })
    await call(core, 'workspace:import', { upload: await uploadText(core, 'hostile.qxw.json', workspaceFile(server.origin)) })
  })
  afterAll(async () => {
    await core?.close()
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  async function evaluate(set: string): Promise<Evaluation> {
    const runId = `kept-${randomUUID()}`
    await call(core, 'eval:start', { runId, set, target: { connectionId: connection.id }, depth: 10, metrics: 'ndcg@10' })
    const status = EvalRunStatusSchema.parse(await untilEnded(async () => EvalRunStatusSchema.parse(await call(core, 'eval:status', { runId }))))
    expect(status.state, status.message ?? '').toBe('done')
    const listed = await call<{ id: string }[]>(core, 'eval:list', { set })
    expect(listed.map((entry) => entry.id)).toContain(status.evaluationId)
    return keptEvaluation(core, status.evaluationId!)
  }

  it('opens an evaluation whose answers held a probability of 1e999 and an item key of 2,001 characters, its figures saying so', async () => {
    const evaluation = await evaluate('Hostile')
    const [infinite, long, plain] = evaluation.rankings
    // The ranking is kept whole; its probabilities, which no longer say anything, are left out with a note.
    expect(infinite).toMatchObject({ id: 'q1', items: ['a', 'b', 'c'], error: null })
    expect(infinite!.probabilities).toBeUndefined()
    expect(infinite!.note).toBe("Probabilities left out: item 2's probability is not a finite number.")
    // A key longer than a judgment's item may be is no ranking to keep: the query fails, saying so; the others stand.
    expect(long).toMatchObject({ id: 'q2', items: [], error: "Item 2's key is 2,001 characters: an item key is at most 2,000 characters (a judgment's item), so this ranking is not kept." })
    expect(plain).toMatchObject({ id: 'q3', items: ['a', 'b', 'c'], probabilities: [0.9, 0.8, 0.5], error: null })
    expect(evaluation.scored.queries.map((query) => [query.id, query.scores?.['ndcg@10'] ?? null, query.error])).toEqual([
      ['q1', 1, null],
      ['q2', null, long!.error],
      ['q3', 1, null],
    ])
    expect(evaluation.scored.queries[0]!.note).toBe(infinite!.note)
    expect(evaluation.scored).toMatchObject({ counted: 2, failed: 1 })
  }, 60_000)

  it('keeps an experiment on those answers openable, its sides too', async () => {
    const runId = `kept-exp-${randomUUID()}`
    const side = { connectionId: connection.id }
    await call(core, 'experiments:start', { runId, set: 'Hostile', sides: [side, side], depth: 10, metrics: 'ndcg@10' })
    const status = await untilEnded(async () => ExperimentRunStatusSchema.parse(await call(core, 'experiments:status', { runId })))
    expect(status.state, status.message ?? '').toBe('done')
    const record = ExperimentRecordSchema.parse(await call(core, 'experiments:get', { id: status.experimentId }))
    for (const { evaluationId } of record.sides) {
      const evaluation = await keptEvaluation(core, evaluationId)
      expect(evaluation.rankings.map((ranking) => [ranking.id, ranking.note ?? null, ranking.error === null])).toEqual([
        ['q1', "Probabilities left out: item 2's probability is not a finite number.", true],
        ['q2', null, false],
        ['q3', null, true],
      ])
    }

    expect((await call<{ id: string }[]>(core, 'experiments:list', { set: 'Hostile' })).map((entry) => entry.id)).toContain(record.id)
  }, 60_000)

  it('says so when a listed record does not read, and leaves its row as it is', async () => {
    const kept = await evaluate('Plain')
    // Damaged by another program writing the database (sqlite3, a disk fault) while the app runs.
    const other = new Database(join(dataDir, DATA_STORE_FILE), { timeout: 5_000 })
    try {
      other.prepare('UPDATE evaluations SET head = ? WHERE id = ?').run('{"cut short', kept.id)
    } finally {
      other.close()
    }
    expect(await failure(core, 'eval:get', { id: kept.id })).toEqual({
      code: 'not_found',
      message: `The kept evaluation "${kept.id}" is listed, but it does not read as one (damaged, or written by another version); it is left as it is in the data folder's database.`,
    })
    expect((await call<{ id: string }[]>(core, 'eval:list', {})).map((entry) => entry.id)).toContain(kept.id)
  })

  it('refuses to keep a record its own schema would not read back, naming the field and the rule', async () => {
    const data = new DataStore(mkdtempSync(join(tmpdir(), 'qe-kept-store-')))
    const store = new EvaluationStore(data)
    const record = await evaluate('Plain')
    const bad: Evaluation = { ...record, id: randomUUID(), rankings: [{ ...record.rankings[0]!, probabilities: [0.9, Infinity, 0.5] }] }
    await expect(store.add(bad)).rejects.toThrow(/^Not kept: the evaluation would not read back \(rankings\.0\.probabilities\.1: Invalid input: expected number, received Infinity\)\.$/)
    expect((await store.list()).map((entry) => entry.id)).not.toContain(bad.id)
    await data.close()
    rmSync(data.file.slice(0, -DATA_STORE_FILE.length - 1), { recursive: true, force: true })
  })
})
