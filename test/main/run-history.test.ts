import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { HistoryStore } from '../../src/main/history/history-store'
import { RunHistory } from '../../src/main/history/run-history'
import type { RunOutcome } from '../../src/main/history/run-record'
import { createLogger } from '../../src/main/logging/logger'
import type { QueryReply } from '../../src/shared/ipc/contract'
import { ExplorerError } from '../../src/shared/ipc/errors'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search } from './support'

/**
 * One History entry a run, however many pages Load more adds, over a real
 * History database in a temporary folder; the outcomes are the handler
 * table's, written by hand with their times.
 */

const rows = (count: number): QueryReply => ({
  url: 'http://127.0.0.1:9/query/sent',
  status: 200,
  contentType: 'application/json',
  bytes: 10,
  body: { offset: 0, count, type: ['OBJ'], items: Array.from({ length: count }, (_, i) => ({ rank: i + 1 })) },
  timings: { connectMs: 0, firstByteMs: 1, totalMs: 2 },
  cached: false,
})
const at = (startedAt: number, durationMs: number, more: Partial<RunOutcome> = {}): RunOutcome => ({
  startedAt,
  durationMs,
  connectionId: 'c1',
  connection: { id: 'c1', name: 'Atlas', queryUrl: 'http://127.0.0.1:9/query' },
  request: search('paris'),
  reply: rows(100),
  ...more,
})

describe('run history', () => {
  const tempDir = useTempDirs('qe-run-history')
  const stores: HistoryStore[] = []
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()))
  })

  function open() {
    const dir = tempDir()
    const store = new HistoryStore(dir)
    stores.push(store)
    return { dir, store, history: new RunHistory(store, createLogger(dir)) }
  }

  it("records a run and its pages as one entry; pages asked at once add only the time beyond the run's", async () => {
    const { store, history } = open()
    const first = await history.record('run-1', at(1_000, 100))
    // Asked while the first was on its way: 1,050–1,150 adds the 50 ms past 1,100; 1,060–1,110 adds nothing.
    await history.record('page-2', at(1_050, 100), 'run-1')
    const last = await history.record('page-3', at(1_060, 50), 'run-1')
    expect(last).toMatchObject({ id: first!.id, pages: 3, itemCount: 300, durationMs: 150 })
    expect(await store.list()).toEqual([last])
  })

  it('leaves out a page cancelled on its way', async () => {
    const { store, history } = open()
    const first = await history.record('run-1', at(0, 10))
    expect(await history.record('page-2', at(10, 10, { reply: undefined, error: new ExplorerError('cancelled', 'Cancelled.') }), 'run-1')).toBeNull()
    expect(await store.list()).toEqual([first])
  })

  it("a page of a run it does not know, or whose entry was cleared, starts an entry its run's later pages join", async () => {
    const { store, history } = open()
    const orphan = await history.record('page-x', at(0, 10), 'run-unknown')
    const joined = await history.record('page-y', at(10, 10), 'run-unknown')
    expect(joined).toMatchObject({ id: orphan!.id, pages: 2, itemCount: 200 })
    await history.record('run-2', at(100, 10))
    await store.clear()
    const restarted = await history.record('page-z', at(110, 10), 'run-2')
    expect(restarted).toMatchObject({ pages: 1, itemCount: 100 })
    expect((await store.list()).map((entry) => entry.id)).toEqual([restarted!.id])
  })

  it('never throws: a History that cannot be written costs the entry, logged, not the answer', async () => {
    const { dir, store, history } = open()
    await store.close()
    stores.splice(stores.indexOf(store), 1)
    expect(await history.record('run-1', at(0, 10))).toBeNull()
    expect(readFileSync(join(dir, 'logs', 'main.log'), 'utf8')).toMatch(/"level":"ERROR","message":"history: /)
  })
})
