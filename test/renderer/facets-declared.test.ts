import { createPinia, setActivePinia } from 'pinia'
import { nextTick } from 'vue'
import { beforeEach, describe, expect, it } from 'vitest'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { FacetDeclaration } from '../../src/shared/query/facet-declaration'
import type { Step } from '../../src/shared/query/model'
import { answerAsDemo, DEMO_CONNECTION, fakeBridge, installBridge, settle } from './fake-bridge'

/**
 * Facets declared by hand, as the window's stores hold them against a
 * deployment that serves no description: the declarations come from the open
 * workspace's connection, selecting options writes the filter as the
 * official client does, a new search drops the selections of the facets that
 * reset, and the connections store says why there is no description.
 */

const fake = fakeBridge()
installBridge(fake)
const { useChainStore } = await import('../../src/renderer/stores/chain')
const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useFacetsStore } = await import('../../src/renderer/stores/facets')
const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')

const GENRE: FacetDeclaration = { options: 'genre', selection: 'single', resetOnSearchChange: true }
const DIRECTOR: FacetDeclaration = { options: 'director', filter: 'director:F', parameter: 'who', selection: 'multiple', resetOnSearchChange: false }

function viewWith(facets: FacetDeclaration[]): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_CONNECTION
  return {
    name: 'Untitled workspace', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: true, queries: [], tests: [], sets: [],
    bindings: [{ fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described, facets } }],
  }
}

async function onDemo(facets: FacetDeclaration[]) {
  const connections = useConnectionsStore()
  await connections.load()
  const workspace = useWorkspaceStore()
  workspace.show(viewWith(facets))
  const chain = useChainStore()
  const store = useFacetsStore()
  chain.updateStep(0, { endpoint: 'movie_search', parameters: { query: 'heat' } })
  await nextTick()
  return { connections, workspace, chain, store }
}

const sent = () => useChainStore().steps

beforeEach(() => {
  answerAsDemo(fake)
  setActivePinia(createPinia())
})

describe('declared facets in the window', () => {
  it('lists the facets declared for the connection in use, with no description at all', async () => {
    const { connections, store } = await onDemo([GENRE, DIRECTOR])
    expect(connections.description).toBeNull()
    expect(store.facets).toEqual(['genre', 'director'])
    expect(store.modeOf('genre')).toBe('single')
    expect(store.modeOf('director')).toBe('multiple')
  })

  it('writes a single selection bare and several as a tuple list, each with its own filter and parameter, and reads them back', async () => {
    const { store } = await onDemo([GENRE, DIRECTOR])
    store.toggle('genre', 'Drama', true)
    store.toggle('genre', 'Crime', true)
    store.toggle('director', 'Mann', true)
    store.toggle('director', 'Nolan', true)
    expect(sent()).toEqual([
      { endpoint: 'movie_search', parameters: { query: 'heat' } },
      { endpoint: 'genre:FILTER', parameters: { value: 'Crime' } },
      { endpoint: 'director:F', parameters: { who: '1("Mann")|1("Nolan")' } },
    ])
    expect(store.selectedIds('genre')).toEqual(['Crime'])
    expect(store.selectedIds('director')).toEqual(['Mann', 'Nolan'])
    store.clear('director')
    expect(sent().map((step) => 'endpoint' in step && step.endpoint)).toEqual(['movie_search', 'genre:FILTER'])
  })

  it("drops the selections of the facets that reset when the search changes, as the client's setParameter does", async () => {
    const { chain, store } = await onDemo([GENRE, DIRECTOR])
    store.toggle('genre', 'Drama', true)
    store.toggle('director', 'Mann', true)
    await nextTick()
    chain.updateStep(0, { endpoint: 'movie_search', parameters: { query: 'heath' } })
    await nextTick()
    expect(sent()).toEqual([
      { endpoint: 'movie_search', parameters: { query: 'heath' } },
      { endpoint: 'director:F', parameters: { who: '1("Mann")' } },
    ])
  })

  it('keeps the filters of a request put in place whole (a pasted URL, a saved query)', async () => {
    const { chain } = await onDemo([GENRE])
    const steps: Step[] = [
      { endpoint: 'movie_search', parameters: { query: 'alien' } },
      { endpoint: 'genre:FILTER', parameters: { value: 'Horror' } },
    ]
    await chain.loadRequest({ workspace: 'world', api: 'places', steps, responseType: 'results', options: { count: 10 } })
    await nextTick()
    expect(sent()).toEqual(steps)
    expect(useFacetsStore().selectedIds('genre')).toEqual(['Horror'])
  })

  it('sends the whole list to the workspace on declare, edit and remove, and removing a facet drops its filter', async () => {
    const { workspace, store } = await onDemo([GENRE])
    store.toggle('genre', 'Drama', true)
    fake.answers['workspace:set-facets'] = viewWith([GENRE, DIRECTOR])
    await store.declare(DIRECTOR)
    expect(fake.calls.at(-1)).toEqual({ channel: 'workspace:set-facets', request: { connectionId: 'c1', facets: [GENRE, DIRECTOR] } })
    expect(workspace.declaredFacets).toEqual([GENRE, DIRECTOR])

    const edited = { ...GENRE, selection: 'multiple' as const }
    fake.answers['workspace:set-facets'] = viewWith([edited, DIRECTOR])
    await store.declare(edited, 'genre')
    expect(fake.calls.at(-1)?.request).toEqual({ connectionId: 'c1', facets: [edited, DIRECTOR] })

    fake.answers['workspace:set-facets'] = viewWith([DIRECTOR])
    await store.undeclare('genre')
    expect(fake.calls.at(-1)?.request).toEqual({ connectionId: 'c1', facets: [DIRECTOR] })
    expect(store.facets).toEqual(['director'])
    expect(sent()).toEqual([{ endpoint: 'movie_search', parameters: { query: 'heat' } }])
  })
})

describe('an API without a description', () => {
  it('says why: a 404, or JSON of another shape', async () => {
    const connections = useConnectionsStore()
    await connections.load()
    expect(connections.descriptionState).toBe('none')
    expect(connections.absenceText).toBe('This API serves no description (404): endpoints are typed by name, and facets are declared here.')
    fake.answers['api:learn'] = { description: null, absence: { reason: 'other-shape', status: 200 } }
    await connections.describe()
    expect(connections.absenceText).toMatch(/^This API's description route answered in another format \(200\)/)
  })

  it('takes a 401 as not allowed to read it: no description, not a failure', async () => {
    fake.hold('api:learn')
    const connections = useConnectionsStore()
    const loading = connections.load()
    await settle()
    fake.held[0]!.refuse({ code: 'auth', message: 'The API description could not be read (401: Unauthorized).', status: 401 } as never)
    await loading
    expect(connections.descriptionState).toBe('none')
    expect(connections.error).toBeNull()
    expect(connections.absenceText).toBe("This API's description may not be read with this account (401): endpoints are typed by name, and facets are declared here.")
  })
})
