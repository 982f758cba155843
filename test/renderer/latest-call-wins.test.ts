import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { answerAsDemo, fakeBridge, installBridge, settle, type HeldCall } from './fake-bridge'

const fake = fakeBridge()
installBridge(fake)
const { useChainStore } = await import('../../src/renderer/stores/chain')
const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useHistoryStore } = await import('../../src/renderer/stores/history')
const { useQueryStore } = await import('../../src/renderer/stores/query')

beforeEach(() => {
  answerAsDemo(fake)
  setActivePinia(createPinia())
})

/** What query:run answers a held call: a page with one row named after the chain's query, or statistics. */
function answerRun(call: HeldCall, total: number): void {
  const request = call.request.request as QueryRequest
  const step = request.steps[0] as { parameters: Record<string, string> }
  const body = request.responseType === 'statistics'
    ? { total }
    : { offset: 0, count: 10, type: [], items: [{ rank: 1, probability: 1, tuple: [step.parameters.query ?? ''] }] }
  call.answer({ url: 'http://127.0.0.1:4123/query', status: 200, contentType: 'application/json', bytes: 1, body, timings: { connectMs: null, firstByteMs: 1, totalMs: 1 }, cached: false })
}

const runsOf = (query: string) =>
  fake.held.filter((call) => ((call.request.request as QueryRequest).steps[0] as { parameters: Record<string, string> }).parameters.query === query)

async function editorOn(query: string) {
  await useConnectionsStore().load()
  const chain = useChainStore()
  chain.updateStep(0, { endpoint: 'search', parameters: { query } })
  return chain
}

describe('query store: the latest run wins', () => {
  it('drops the answer of an older run that arrives after the newer one', async () => {
    const chain = await editorOn('madrid')
    const query = useQueryStore()
    fake.hold('query:run')
    const first = query.run()
    chain.updateStep(0, { endpoint: 'search', parameters: { query: 'paris' } })
    const second = query.run()
    await settle()
    // The newer run stopped the older one's requests in the main process.
    expect(fake.calls.filter((call) => call.channel === 'query:cancel')).toHaveLength(2)

    for (const call of runsOf('paris')) answerRun(call, 2)
    await second
    for (const call of runsOf('madrid')) answerRun(call, 1)
    await first

    expect(query.items.map((item) => item.tuple)).toEqual([['paris']])
    expect(query.total).toBe(2)
    expect(query.phase).toBe('done')
    expect(query.shown?.request.steps).toEqual([{ endpoint: 'search', parameters: { query: 'paris' } }])
  })

  it('drops an answer that arrives after Cancel, and keeps the rows shown', async () => {
    await editorOn('madrid')
    const query = useQueryStore()
    fake.hold('query:run')
    const run = query.run()
    await settle()
    expect(query.running).toBe(true)
    await query.cancel()
    for (const call of fake.held) answerRun(call, 1)
    await run
    expect(query.phase).toBe('cancelled')
    expect(query.items).toEqual([])
    expect(query.total).toBeNull()
    expect(query.startedAt).toBeNull()
  })

  it('drops an answer that arrives after a reset (another connection or API)', async () => {
    await editorOn('madrid')
    const query = useQueryStore()
    fake.hold('query:run')
    const run = query.run()
    await settle()
    query.reset()
    for (const call of fake.held) answerRun(call, 1)
    await run
    expect(query.phase).toBe('idle')
    expect(query.results).toBeNull()
  })
})

describe('history store: the latest search wins', () => {
  it('shows the answer to the newest search, whatever order the answers come in', async () => {
    const history = useHistoryStore()
    fake.hold('history:list')
    const older = history.search('mad')
    const newer = history.search('madrid')
    await settle()
    expect(fake.held.map((call) => call.request.text)).toEqual(['mad', 'madrid'])

    fake.held[1]!.answer([{ url: 'newer' }])
    await newer
    expect(history.loading).toBe(false)
    fake.held[0]!.answer([{ url: 'older' }])
    await older
    expect(history.entries).toEqual([{ url: 'newer' }])
  })

  it('ignores the failure of an older search', async () => {
    const history = useHistoryStore()
    fake.hold('history:list')
    const older = history.search('a')
    const newer = history.search('ab')
    await settle()
    fake.held[1]!.answer([])
    fake.held[0]!.refuse({ code: 'internal', message: 'late failure' })
    await Promise.all([older, newer])
    expect(history.error).toBeNull()
  })
})
