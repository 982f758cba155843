import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBridge, installBridge } from './fake-bridge'

const fake = fakeBridge()
installBridge(fake)
const { useTestsStore, POLL_MS } = await import('../../src/renderer/stores/tests')
const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')

const status = (state: 'running' | 'done' | 'cancelled', done = 0) => ({
  runId: 'r', state, target: 'each case', total: 1, done, durationMs: 1,
  cases: done ? [{ name: 'a', outcome: 'passed', durationMs: 1, checks: [] }] : [null],
})
const statusCalls = () => fake.calls.filter((entry) => entry.channel === 'tests:status')

beforeEach(() => {
  // The store polls on the host's setTimeout: a fake one, moved on by the test.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  // The run's id is the window's: the same as main's fake answers.
  vi.spyOn(crypto, 'randomUUID').mockReturnValue('r' as never)
  fake.clear()
  fake.answers = { 'tests:start': status('running'), 'tests:cancel': status('cancelled') }
  fake.hold('tests:status')
  setActivePinia(createPinia())
  useWorkspaceStore().show({ queries: [], tests: [{ name: 'a' }], bindings: [] } as never)
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** The tests store (src/renderer/stores/tests.ts): a run followed until it ends, cases added, where runs go. */
describe('tests store: following a run', () => {
  it(`asks tests:status every ${POLL_MS} ms until the run is no longer running`, async () => {
    const tests = useTestsStore()
    await tests.start()
    expect(tests.running).toBe(true)
    await vi.advanceTimersByTimeAsync(POLL_MS - 1)
    expect(statusCalls()).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(statusCalls()).toHaveLength(1)
    fake.held.shift()!.answer(status('running'))
    await vi.advanceTimersByTimeAsync(POLL_MS)
    expect(statusCalls()).toHaveLength(2)
    fake.held.shift()!.answer(status('done', 1))
    await vi.advanceTimersByTimeAsync(0)
    expect(tests.running).toBe(false)
    expect(tests.reports.a?.outcome).toBe('passed')
    await vi.advanceTimersByTimeAsync(POLL_MS * 4)
    expect(statusCalls()).toHaveLength(2)
  })

  it('stops asking once the run is cancelled', async () => {
    const tests = useTestsStore()
    await tests.start()
    await tests.cancel()
    expect(tests.run?.state).toBe('cancelled')
    await vi.advanceTimersByTimeAsync(POLL_MS * 4)
    expect(statusCalls()).toHaveLength(0)
  })

  it('says so when the progress cannot be read, and stops', async () => {
    const tests = useTestsStore()
    await tests.start()
    await vi.advanceTimersByTimeAsync(POLL_MS)
    fake.held.shift()!.refuse({ code: 'not_found', message: 'There is no test run with the id "r".' })
    await vi.advanceTimersByTimeAsync(0)
    expect(tests.error).toContain("The test run's progress could not be read:")
    expect(tests.run?.state).toBe('cancelled')
    await vi.advanceTimersByTimeAsync(POLL_MS * 4)
    expect(statusCalls()).toHaveLength(1)
  })
})

const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useToastsStore } = await import('../../src/renderer/stores/toasts')
const { useChainStore } = await import('../../src/renderer/stores/chain')
const { DEMO_CONNECTION, DEMO_INFO } = await import('./fake-bridge')

describe('tests store: cases and where they run', () => {
  it('adds no test while the editor holds no query, and says what to do', async () => {
    const tests = useTestsStore()
    expect(await tests.addFromQuery()).toBeNull()
    expect(useToastsStore().toasts.map((toast) => toast.message)).toEqual(['Build a query first: a test is made from the query in the editor and its current answer.'])
    expect(fake.calls.filter((call) => call.channel === 'tests:add-from-query')).toEqual([])
  })

  it("adds a test from the editor's query on its connection, and forgets an outcome of that name", async () => {
    fake.answers['app:info'] = DEMO_INFO
    fake.answers['connections:list'] = [DEMO_CONNECTION]
    await useConnectionsStore().load()
    useChainStore().updateStep(0, { endpoint: 'search', parameters: { query: 'oslo' } })
    const tests = useTestsStore()
    await tests.start()
    await vi.advanceTimersByTimeAsync(POLL_MS)
    fake.held.shift()!.answer(status('done', 1))
    await vi.advanceTimersByTimeAsync(0)
    expect(Object.keys(tests.reports)).toEqual(['a'])

    fake.answers['tests:add-from-query'] = { name: 'a', workspace: { queries: [], tests: [{ name: 'a' }, { name: 'b' }], bindings: [] } }
    expect(await tests.addFromQuery()).toBe('a')
    const asked = fake.calls.find((call) => call.channel === 'tests:add-from-query')!.request
    expect(asked.connectionId).toBe('c1')
    expect((asked.request as { steps: unknown[] }).steps).toEqual([{ endpoint: 'search', parameters: { query: 'oslo' } }])
    expect(tests.cases.map((testCase) => testCase.name)).toEqual(['a', 'b'])
    expect(tests.reports).toEqual({})
    expect(tests.adding).toBe(false)
  })

  it("turns an API chosen for each case's own connection into a run on the connection the cases share", () => {
    useWorkspaceStore().show({
      queries: [{ name: 'q', connection: 'f1', request: {} }],
      tests: [{ name: 'a', query: 'q' }, { name: 'b', connection: 'f1' }],
      bindings: [{ fileConnectionId: 'f1', connectionId: 'c9' }],
    } as never)
    const tests = useTestsStore()
    expect(tests.ownConnectionId).toBe('c9')
    tests.chooseApi('people')
    expect(tests.target).toEqual({ connectionId: 'c9', api: 'people', config: '' })
    tests.chooseConnection(null)
    expect(tests.target).toEqual({ connectionId: null, api: '', config: '' })
  })
})
