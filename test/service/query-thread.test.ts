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
 * never run; stopping answers what still waits.
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

  it('answers what still waits with 503 when it stops', async () => {
    const stopping = startQueryThread({ budgetMs: 5000, log: () => undefined })
    await stopping.started
    const waiting = [stopping.answer(countOf('paris'), () => true), stopping.answer(countOf('lyon'), () => true)]
    await stopping.close()
    for (const reply of await Promise.all(waiting)) expect(reply).toMatchObject({ status: 503 })
    expect((await stopping.answer(countOf('paris'), () => true)).status).toBe(503)
  })
})
