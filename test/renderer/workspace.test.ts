import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { answerAsDemo, fakeBridge, installBridge, settle } from './fake-bridge'

const fake = fakeBridge()
installBridge(fake)
const { useChainStore } = await import('../../src/renderer/stores/chain')
const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')

const EMPTY_VIEW = { name: 'Untitled workspace', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], sets: [], bindings: [] }
const draftOf = (query: string): { connectionId: string; request: QueryRequest; savedQuery: null } => ({
  connectionId: 'c1',
  request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query } }], responseType: 'results', options: {} } as QueryRequest,
  savedQuery: null,
})

beforeEach(() => {
  answerAsDemo(fake)
  setActivePinia(createPinia())
})

const queryOf = (chain: ReturnType<typeof useChainStore>) => (chain.chain[0]!.step as { parameters: Record<string, string> }).parameters.query

/** The workspace store (src/renderer/stores/workspace.ts): the last session comes back, saved queries, saving, the draft. */
describe("the last session's draft at start", () => {
  it('comes back into an editor nobody has touched yet', async () => {
    await useConnectionsStore().load()
    fake.answers['workspace:current'] = { workspace: EMPTY_VIEW, draft: draftOf('lisbon') }
    await useWorkspaceStore().start()
    expect(queryOf(useChainStore())).toBe('lisbon')
  })

  it('does not replace a URL pasted while it was on its way', async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    fake.hold('workspace:current')
    const started = useWorkspaceStore().start()
    await settle()
    const pasted = await chain.replaceFromUrl('http://127.0.0.1:4123/query/world/api/places/e/search/p/query/porto/results')
    expect(pasted.ok).toBe(true)
    fake.held[0]!.answer({ workspace: EMPTY_VIEW, draft: draftOf('lisbon') })
    await started
    expect(queryOf(chain)).toBe('porto')
    expect(useWorkspaceStore().started).toBe(true)
  })
})

const { useToastsStore } = await import('../../src/renderer/stores/toasts')
const { DRAFT_DELAY_MS } = await import('../../src/renderer/stores/workspace')

const SAVED = {
  name: 'Cities', connection: 'f1',
  request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'lyon' } }], responseType: 'results', options: {} },
}
/** The file's connection f1, found at another port than the app's Demo (c1) it runs on. */
const MOVED_VIEW = {
  ...EMPTY_VIEW,
  queries: [SAVED],
  bindings: [{ fileConnectionId: 'f1', connection: { id: 'f1', name: 'File demo', authUrl: '', queryUrl: 'http://127.0.0.1:9/query', workspace: 'world', api: 'places', clientId: '' }, connectionId: 'c1', how: 'moved' }],
}
const toastTexts = () => useToastsStore().toasts.map((toast) => [toast.tone, toast.message])

describe('workspace store', () => {
  it('refuses to save a query before a connection is chosen, sending nothing', async () => {
    await expect(useWorkspaceStore().saveQuery('Cities')).rejects.toThrow('Choose a connection first: a saved query runs on one.')
    expect(fake.calls.filter((call) => call.channel === 'workspace:save-query')).toEqual([])
  })

  it("loads a saved query into the editor on its bound connection, and says once that the file's connection was at another address", async () => {
    await useConnectionsStore().load()
    const workspace = useWorkspaceStore()
    workspace.show(MOVED_VIEW as never)
    expect(await workspace.loadSaved('Cities')).toBe(true)
    expect(await workspace.loadSaved('Cities')).toBe(true)
    expect(queryOf(useChainStore())).toBe('lyon')
    expect(workspace.savedQuery).toBe('Cities')
    expect(workspace.queryDirty).toBe(false)
    expect(toastTexts()).toEqual([['info', "Runs on Demo (the file's File demo was at another address)."]])
    useChainStore().updateStep(0, { endpoint: 'search', parameters: { query: 'nice' } })
    expect(workspace.queryDirty).toBe(true)
    expect(await workspace.loadSaved('Missing')).toBe(false)
  })

  it('says in a toast that a query was not deleted, in main’s words', async () => {
    const workspace = useWorkspaceStore()
    fake.hold('workspace:delete-query')
    const deleted = workspace.deleteQuery('Cities')
    await settle()
    fake.held[0]!.refuse({ code: 'not_found', message: 'There is no saved query "Cities".' })
    expect(await deleted).toBe(false)
    expect(toastTexts()).toEqual([['danger', '"Cities" was not deleted: There is no saved query "Cities".']])
  })

  it('asks a name before the first save of an untitled workspace in the browser host; closing the question cancels', async () => {
    const workspace = useWorkspaceStore()
    workspace.show(EMPTY_VIEW as never)
    const cancelled = workspace.save()
    expect(workspace.naming?.initial).toBe('')
    workspace.naming!.finish()
    expect(await cancelled).toBe('cancelled')
    expect(fake.calls.filter((call) => call.channel === 'workspace:save')).toEqual([])

    const saving = workspace.save()
    fake.answers['workspace:save'] = { workspace: { ...EMPTY_VIEW, name: 'Trip', fileName: 'Trip.qe.json', saveTarget: 'file' }, download: null }
    await workspace.naming!.save('Trip')
    workspace.naming!.finish()
    expect(await saving).toBe('saved')
    expect(fake.calls.filter((call) => call.channel === 'workspace:save').map((call) => call.request)).toEqual([{ name: 'Trip' }])
    expect(workspace.view?.name).toBe('Trip')
    expect(workspace.naming).toBeNull()
    expect(toastTexts()).toEqual([['info', 'Saved Trip.qe.json.']])
  })
})

describe('workspace store: the draft', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }))
  afterEach(() => void vi.useRealTimers())

  it(`is sent once, ${DRAFT_DELAY_MS} ms after the last edit, and only after the start`, async () => {
    await useConnectionsStore().load()
    const chain = useChainStore()
    const drafts = () => fake.calls.filter((call) => call.channel === 'workspace:draft')
    chain.updateStep(0, { endpoint: 'search', parameters: { query: 'before start' } })
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS * 2)
    expect(drafts()).toEqual([])

    fake.answers['workspace:current'] = { workspace: EMPTY_VIEW, draft: null }
    await useWorkspaceStore().start()
    chain.updateStep(0, { endpoint: 'search', parameters: { query: 'ber' } })
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS - 1)
    chain.updateStep(0, { endpoint: 'search', parameters: { query: 'bern' } })
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS - 1)
    expect(drafts()).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(drafts().map((call) => (call.request.draft as { request: QueryRequest }).request.steps)).toEqual([[{ endpoint: 'search', parameters: { query: 'bern' } }]])
  })
})
