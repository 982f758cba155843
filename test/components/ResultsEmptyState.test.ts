import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import type { Draft, ExplorerBridge, WorkspaceView } from '../../src/shared/ipc/contract'
import { DEMO_VIEW, TEST_INFO } from './window-fixtures'
import type { QueryRequest } from '../../src/shared/query/model'

/**
 * The results area before anything ran: a query put back in the editor (the
 * last session's, after a restart) is ready to run, and the page says so
 * rather than asking to fill in a search step that is filled in.
 */

const SAN: QueryRequest = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'results', options: { config: 'default', count: 10 } }

function view(): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_VIEW
  return {
    name: 'world', fileName: 'world.qxw.json', folder: null, saveTarget: 'download', judges: [], dirty: false,
    queries: [{ name: 'San', connection: 'demo', notes: '', request: SAN }], tests: [], sets: [],
    bindings: [{ fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described } }],
  }
}

/** The draft the last session left; the window's client keeps the first bridge it finds, so one bridge reads it for every test. */
let draft: Draft | null = null
const bridge: ExplorerBridge = {
  async invoke(channel) {
    const answers: Record<string, unknown> = {
      'app:info': TEST_INFO,
      'connections:list': [DEMO_VIEW],
      'api:learn': { description: null, absence: { reason: 'not-found', status: 404 } },
      'history:list': [],
      'workspace:current': { workspace: view(), draft },
    }
    return { ok: true, data: answers[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
})

async function start(last: Draft | null) {
  draft = last
  window.explorer = bridge
  const [{ default: ResultsEmptyState }, { useConnectionsStore }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/results/ResultsEmptyState.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
  ])
  const pinia = createPinia()
  const screen = await render(ResultsEmptyState, { global: { plugins: [pinia] } })
  await useConnectionsStore(pinia).load()
  await useWorkspaceStore(pinia).start()
  return screen
}

describe('ResultsEmptyState', () => {
  it('after a restart that brought a saved query back: it is ready to run, not to be built', async () => {
    const screen = await start({ connectionId: 'c1', request: SAN, savedQuery: 'San' })
    await expect.element(screen.getByText('“San” is ready to run.')).toBeVisible()
    await expect.element(screen.getByText(/^Press Run \(Ctrl\+Enter\) to see its results/)).toBeVisible()
    expect(screen.container.textContent).not.toContain('Fill in the search step')
  })

  it('a draft of its own is ready too; an empty editor still asks to build a query', async () => {
    const own = await start({ connectionId: 'c1', request: { ...SAN, steps: [{ endpoint: 'search', parameters: { query: 'lima' } }] }, savedQuery: null })
    await expect.element(own.getByText('Your query is ready to run.')).toBeVisible()
    own.unmount()
    const empty = await start(null)
    await expect.element(empty.getByText('Build a query and press Run.')).toBeVisible()
    await expect.element(empty.getByText(/^Fill in the search step on the left/)).toBeVisible()
  })
})
