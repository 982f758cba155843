import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { answerAsDemo, fakeBridge, installBridge, settle } from './fake-bridge'

const fake = fakeBridge()
installBridge(fake)
const { useChainStore } = await import('../../src/renderer/stores/chain')
const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')

const EMPTY_VIEW = { name: 'Untitled workspace', fileName: null, folder: null, saveTarget: 'download', dirty: false, queries: [], tests: [], sets: [], bindings: [] }
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
