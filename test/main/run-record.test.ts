import { describe, expect, it } from 'vitest'
import { historyEntry, itemCountOf, sentUrl, totalOf, wasCancelled, withPage, type RunOutcome } from '../../src/main/history/run-record'
import type { QueryReply } from '../../src/shared/ipc/contract'
import { ExplorerError } from '../../src/shared/ipc/errors'
import { search } from './support'

/** A History entry made of a run, and the pages Load more adds to it. */

const CONNECTION = { id: 'c1', name: 'Atlas', queryUrl: 'http://127.0.0.1:9/query' }
const START = Date.UTC(2026, 0, 2, 3, 4, 5)

const reply = (body: unknown, url = 'http://127.0.0.1:9/query/sent'): QueryReply => ({
  url,
  status: 200,
  contentType: 'application/json',
  bytes: 10,
  body,
  timings: { connectMs: 0, firstByteMs: 1, totalMs: 2 },
  cached: false,
})
const page = (items: number) => ({ offset: 0, count: items, type: ['OBJ'], items: Array.from({ length: items }, (_, i) => ({ rank: i + 1 })) })
const outcome = (more: Partial<RunOutcome>): RunOutcome => ({ startedAt: START, durationMs: 12.4, connectionId: 'c1', connection: CONNECTION, request: search('paris'), ...more })

describe('run record', () => {
  it('reads the total and the item count an answer holds, of each response type', () => {
    expect([totalOf({ total: 42 }), totalOf([page(3), { total: 7 }]), totalOf(page(3)), totalOf({ total: 1.5 }), totalOf('csv text')]).toEqual([42, 7, null, null, null])
    expect([itemCountOf(page(3)), itemCountOf([page(2), { total: 7 }]), itemCountOf({ options: [1, 2] }), itemCountOf({ total: 1 }), itemCountOf(null)]).toEqual([3, 2, 2, null, null])
  })

  it('makes an entry of a run that was answered: its URL as sent, status, counts, time rounded', () => {
    const entry = historyEntry(outcome({ reply: reply([page(3), { total: 90 }]), request: { ...search('paris'), responseType: 'results,count', options: { count: 3, config: 'fast' } } }))
    expect(entry).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      at: '2026-01-02T03:04:05.000Z',
      connectionId: 'c1',
      connectionName: 'Atlas',
      api: 'places',
      config: 'fast',
      url: 'http://127.0.0.1:9/query/sent',
      responseType: 'results,count',
      status: 200,
      error: null,
      total: 90,
      itemCount: 3,
      pages: 1,
      durationMs: 12,
      request: { ...search('paris'), responseType: 'results,count', options: { count: 3, config: 'fast' } },
    })
  })

  it('makes an entry of a run that failed: the URL it would have sent, the error as the reply said it', () => {
    const failed = historyEntry(outcome({ error: new ExplorerError('http', 'The service answered 500.', { status: 500 }) }))
    expect(failed).toMatchObject({ url: sentUrl(CONNECTION, search('paris')), status: 500, error: { code: 'http', message: 'The service answered 500.' }, total: null, itemCount: null, config: 'default' })
    expect(failed.url).toBe('http://127.0.0.1:9/query/world/api/places/e/search/p/query/paris/results?count=10')
    // A fault of ours is an internal error; a connection gone is named by its id, with no URL.
    expect(historyEntry(outcome({ connection: null, error: new TypeError('boom') }))).toMatchObject({ connectionName: 'c1', url: '', status: null, error: { code: 'internal', message: 'boom' } })
    expect([wasCancelled({ error: new ExplorerError('cancelled', 'Cancelled.') }), wasCancelled({ error: new Error('x') }), wasCancelled({ reply: reply(page(1)) })]).toEqual([true, false, false])
  })

  it("adds a Load more page's rows and time to its run's entry; a page of none is no page; a failed page marks the run failed", () => {
    const first = historyEntry(outcome({ reply: reply(page(100)) }))
    const second = withPage(first, outcome({ reply: reply(page(100)) }), 7.6)
    expect(second).toMatchObject({ itemCount: 200, pages: 2, durationMs: 20, url: first.url, at: first.at, error: null })
    expect(withPage(second, outcome({ reply: reply(page(0)) }), 0)).toMatchObject({ itemCount: 200, pages: 2 })
    const failed = withPage(second, outcome({ error: new ExplorerError('timeout', 'Too slow.') }), 3)
    expect(failed).toMatchObject({ itemCount: 200, pages: 2, status: null, error: { code: 'timeout', message: 'Too slow.' }, durationMs: 23 })
  })
})
