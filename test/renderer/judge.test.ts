import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { CITIES } from '../fixtures/judgment-sets'
import { answerAsDemo, fakeBridge, installBridge, settle, type HeldCall } from './fake-bridge'

/**
 * The Judge dialog's walk (src/renderer/stores/judge.ts): its queries'
 * results are asked as the Evaluation view's target runs them, left out of
 * History, as the walk reaches them; a new walk drops the older one's answers.
 */

const fake = fakeBridge()
installBridge(fake)
const { useJudgeStore } = await import('../../src/renderer/stores/judge')
const { useQuerySetsStore } = await import('../../src/renderer/stores/query-sets')
const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')

const TEMPLATE = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: '{{query}}' } }], responseType: 'results', options: {} }
const VIEW = {
  name: 'w', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, tests: [],
  queries: [{ name: 'cities', connection: 'f1', request: TEMPLATE }],
  bindings: [{ fileConnectionId: 'f1', connectionId: 'c1', how: 'same', connection: { id: 'f1', name: 'Demo', authUrl: '', queryUrl: '', workspace: 'world', api: 'places', clientId: '' } }],
  sets: [{ name: 'World cities', queries: 5, judgments: 7 }],
} as never
const WALK = [{ id: 'q1', text: 'paris' }, { id: 'q5', text: 'no judgments yet' }]

const reply = (...ids: string[]) => ({
  url: 'http://127.0.0.1:4123/query', status: 200, contentType: 'application/json', bytes: 1, timings: { connectMs: null, firstByteMs: 1, totalMs: 1 }, cached: false,
  body: { offset: 0, count: 10, type: [], items: ids.map((id, i) => ({ rank: i + 1, probability: 1, tuple: [{ id, class: [], attributes: { name: `City ${id}` } }] })) },
})
const askedText = (call: HeldCall) => ((call.request.request as QueryRequest).steps[0] as { parameters: Record<string, string> }).parameters.query

beforeEach(() => {
  answerAsDemo(fake)
  fake.answers['sets:get'] = CITIES
  fake.answers['eval:list'] = []
  setActivePinia(createPinia())
})

/** The Cities set chosen, its template bound to the Demo. */
async function setChosen() {
  await useConnectionsStore().load()
  const sets = useQuerySetsStore()
  useWorkspaceStore().show(VIEW)
  await settle()
  const set = sets.set
  expect(set?.name).toBe('World cities')
  return set
}

describe('judge store', () => {
  it('says what is missing when there is no set to walk', () => {
    const judge = useJudgeStore()
    judge.begin(null, WALK)
    expect(judge.problem).toBe('Choose a query set first.')
    expect(judge.queue).toBeNull()
  })

  it("asks the query shown and the next one on the template's connection, out of History, and reads each answer's items once", async () => {
    const set = await setChosen()
    const judge = useJudgeStore()
    judge.depth = 3
    fake.hold('query:run')
    judge.begin(set, WALK)
    judge.fetchAhead()
    await settle()
    expect(fake.held.map((call) => [askedText(call), call.request.connectionId, call.request.keepOutOfHistory])).toEqual([
      ['paris', 'c1', true],
      ['no judgments yet', 'c1', true],
    ])
    expect((fake.held[0]!.request.request as QueryRequest).options.count).toBe(3)
    // Q90 comes twice (two ranks of one item) and past the depth: it is one item of the top 3.
    fake.held[0]!.answer(reply('Q90', 'Q90', 'Q1', 'Q2'))
    fake.held[1]!.refuse({ code: 'network', message: 'The service cannot be reached.' })
    await settle()
    expect(judge.queue?.loads[0]).toMatchObject({ state: 'ready', top: ['Q90', 'Q1'] })
    // Q90 is rated already in the set: it is not shown again.
    expect(judge.queue?.loads[0]).toMatchObject({ order: ['Q1'] })
    expect(judge.queue?.loads[1]).toEqual({ state: 'failed', error: 'The service cannot be reached.' })
    expect(judge.itemOf('q1', 'Q1')?.rank).toBe(3)
  })

  it("drops the older walk's answers when a new walk starts, and cancels its queries", async () => {
    const set = await setChosen()
    const judge = useJudgeStore()
    fake.hold('query:run')
    judge.begin(set, WALK)
    judge.fetchAhead()
    await settle()
    const older = [...fake.held]
    fake.held.length = 0
    judge.begin(set, WALK.slice(1))
    older[0]!.answer(reply('Q7'))
    await settle()
    expect(judge.queue?.queries.map((query) => query.id)).toEqual(['q5'])
    expect(judge.queue?.loads).toEqual([{ state: 'waiting' }])
    expect(judge.itemOf('q1', 'Q7')).toBeUndefined()
    expect(fake.calls.filter((call) => call.channel === 'query:cancel').map((call) => call.request.requestId).sort()).toEqual(older.map((call) => call.request.requestId).sort())
  })
})
