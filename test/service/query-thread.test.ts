import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Reply } from '../../src/service/http/reply'
import { checkQuery, type CheckedQuery } from '../../src/service/query/query-check'
import { startQueryThread, type QueryThread } from '../../src/service/query/query-thread'
import { hostedWorkspaces } from '../../src/service/workspace/workspaces'
import type { QueryRequest } from '../../src/shared/query/model'

/**
 * The service's query thread, driven as the HTTP thread drives it: checked
 * queries in, replies out, one at a time; a fault in one request is that
 * request's 500, and the thread goes on; a request whose client has gone is
 * never run; stopping answers what still waits; past a bound of waiting
 * requests a new one is refused at once with 503, not queued without end.
 */

const places = hostedWorkspaces().get('world')!.apis.get('places')!
const checked = (request: Omit<QueryRequest, 'workspace' | 'api'>): CheckedQuery => checkQuery({ workspace: 'world', api: 'places', ...request }, 'world', places)
const countOf = (query: string) => checked({ steps: [{ endpoint: 'search', parameters: { query } }], responseType: 'count', options: {} })
const json = (reply: Reply) => JSON.parse(reply.body.toString()) as unknown

describe('the query thread', () => {
  let thread: QueryThread
  beforeAll(async () => {
    thread = startQueryThread({ budgetMs: 5000, log: () => undefined })
    await thread.started
  })
  afterAll(async () => thread?.close())

  it('answers checked queries, each with its own reply, in the order they came', async () => {
    const replies = await Promise.all(['paris', 'lyon', 'zzqx'].map((query) => thread.answer(countOf(query), () => true)))
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200])
    const [paris, lyon, none] = replies.map(json) as { total: number }[]
    expect(paris!.total).toBeGreaterThan(lyon!.total)
    expect(none).toEqual({ total: 0 })
  })

  it('carries binary bodies back as Buffers (an xlsx page)', async () => {
    const reply = await thread.answer(checked({ steps: [{ endpoint: 'search', parameters: { query: 'paris' } }], responseType: 'results', options: { format: 'xlsx', count: 2 } }), () => true)
    expect(reply.status).toBe(200)
    expect(Buffer.isBuffer(reply.body)).toBe(true)
    expect((reply.body as Buffer).subarray(0, 2).toString('latin1')).toBe('PK')
  })

  it('answers a refusal found while working (a 404 past the last result) as a reply', async () => {
    const reply = await thread.answer(checked({ steps: [{ endpoint: 'search', parameters: { query: 'zzqx' } }], responseType: 'resultitem', options: {} }), () => true)
    expect(reply.status).toBe(404)
    expect(json(reply)).toEqual({ message: 'No result at rank 1: the request has 0 results' })
  })

  it('fails only the request whose work faulted, with its stack for the log, and goes on', async () => {
    const broken = { ...countOf('paris'), api: 'nowhere' }
    await expect(thread.answer(broken, () => true)).rejects.toThrow(/a checked query names an api this thread does not host: world\/nowhere/)
    expect((await thread.answer(countOf('paris'), () => true)).status).toBe(200)
  })

  it('never runs a request whose client has gone', async () => {
    // A fault if it ran; skipped, it is settled with a reply that is never sent.
    const broken = { ...countOf('paris'), api: 'nowhere' }
    const skipped = await thread.answer(broken, () => false)
    expect(skipped.status).toBe(499)
  })

  it('keeps at most maxWaiting requests waiting: the next is refused at once with 503 and Retry-After, after gone clients make room', async () => {
    // Not started yet, the thread runs nothing: every request waits, and the bound is reached without racing the thread.
    const busy = startQueryThread({ budgetMs: 5000, maxWaiting: 3, log: () => undefined })
    try {
      const gone = [busy.answer(countOf('paris'), () => false), busy.answer(countOf('lyon'), () => false)]
      const first = busy.answer(countOf('rome'), () => true)
      // Full: the two whose clients left are dropped unrun, so these two wait.
      const kept = [busy.answer(countOf('oslo'), () => true), busy.answer(countOf('bern'), () => true)]
      const refused = await busy.answer(countOf('nice'), () => true)
      expect(refused.status).toBe(503)
      expect(refused.headers['Retry-After']).toBe('1')
      expect(json(refused)).toEqual({
        message: 'Service busy: 3 queries are already waiting for the query thread, the most it keeps waiting. Try again in a moment.',
      })
      for (const reply of await Promise.all(gone)) expect(reply.status).toBe(499)
      for (const reply of await Promise.all([first, ...kept])) expect(reply.status).toBe(200)
      // Answered, they make room again.
      expect((await busy.answer(countOf('nice'), () => true)).status).toBe(200)
    } finally {
      await busy.close()
    }
  })

  it("looks up the demo judge's largest population of a folded name in turn with the queries (0 for none)", async () => {
    const [count, paris, newYork, none] = await Promise.all([
      thread.answer(countOf('paris'), () => true),
      thread.largest('paris', () => true),
      // "New York City" counts as named "new york".
      thread.largest('new york', () => true),
      thread.largest('zzqx', () => true),
    ])
    expect(count.status).toBe(200)
    expect(paris).toBe(2_138_551)
    expect(newYork).toBeGreaterThan(8_000_000)
    expect(none).toBe(0)
  })

  it('refuses a lookup with the reply as a ServiceError once it has stopped', async () => {
    const stopped = startQueryThread({ budgetMs: 5000, log: () => undefined })
    await stopped.started
    await stopped.close()
    await expect(stopped.largest('paris', () => true)).rejects.toMatchObject({ name: 'ServiceError', status: 503, message: 'The service is stopping: the query was not answered' })
  })

  it('answers what still waits with 503 when it stops', async () => {
    const stopping = startQueryThread({ budgetMs: 5000, log: () => undefined })
    await stopping.started
    const waiting = [stopping.answer(countOf('paris'), () => true), stopping.answer(countOf('lyon'), () => true)]
    await stopping.close()
    for (const reply of await Promise.all(waiting)) expect(reply).toMatchObject({ status: 503 })
    expect((await stopping.answer(countOf('paris'), () => true)).status).toBe(503)
  })
})
