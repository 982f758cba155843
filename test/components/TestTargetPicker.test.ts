import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { ApiDescription } from '../../src/shared/api-description'
import type { AppInfo, ConnectionView, ExplorerBridge, WorkspaceView } from '../../src/shared/ipc/contract'

/**
 * Where the tests run: the Config picker is there from the start, and a
 * configuration chosen while each case runs on its own connection runs every
 * case on the connection they run on, with that configuration.
 */

const DEMO: ConnectionView = {
  id: 'c1', name: 'Demo', authUrl: 'http://127.0.0.1:1/auth', queryUrl: 'http://127.0.0.1:1/query', workspace: 'world', api: 'places',
  clientId: 'demo', builtIn: true, hasSecret: true, tokenRequestsLastHour: 0,
}
const OTHER: ConnectionView = { ...DEMO, id: 'c2', name: 'Staging', builtIn: false, queryUrl: 'http://127.0.0.1:2/query', authUrl: 'http://127.0.0.1:2/auth' }
const INFO: AppInfo = { version: 'test', host: 'browser', keychain: { kind: 'os', detail: '' }, demo: null, lastConnectionId: 'c2', notices: [] }
const DESCRIPTION: ApiDescription = { workspace: 'world', api: 'places', public: false, configs: ['default', 'production'], endpoints: [] }

function view(): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO
  return {
    name: 'world', fileName: 'world.qxw.json', folder: null, saveTarget: 'download', judges: [], dirty: false,
    queries: [{ name: 'San', connection: 'demo', notes: '', request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'results', options: {} } }],
    tests: [{ name: 'san finds', query: 'San', expect: { status: 200 } }], sets: [],
    bindings: [{ fileConnectionId: 'demo', connectionId: 'c1', how: 'moved', connection: { id: 'demo', ...described } }],
  }
}

const runs: unknown[] = []
const bridge: ExplorerBridge = {
  async invoke(channel, request) {
    if (channel === 'tests:start') {
      runs.push(request)
      return { ok: true, data: { runId: (request as { runId: string }).runId, state: 'done', target: 'Demo', cases: [], durationMs: 1 } } as never
    }
    const answers: Record<string, unknown> = {
      'app:info': INFO,
      'connections:list': [DEMO, OTHER],
      'api:describe': DESCRIPTION,
      'api:learn': { description: DESCRIPTION, absence: null },
      'history:list': [],
    }
    return { ok: true, data: answers[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
  runs.length = 0
})

describe('TestTargetPicker', () => {
  it('offers the Config from the start; a config chosen with each case on its own connection runs them on theirs with it', async () => {
    window.explorer = bridge
    const [{ default: TestTargetPicker }, { useConnectionsStore }, { useWorkspaceStore }, { useTestsStore }] = await Promise.all([
      import('../../src/renderer/components/tests/TestTargetPicker.vue'),
      import('../../src/renderer/stores/connections'),
      import('../../src/renderer/stores/workspace'),
      import('../../src/renderer/stores/tests'),
    ])
    const pinia = createPinia()
    const screen = await render(TestTargetPicker, { global: { plugins: [pinia] } })
    await useConnectionsStore(pinia).load()
    useWorkspaceStore(pinia).show(view())

    const runOn = screen.getByRole('combobox', { name: 'Run on' })
    const config = screen.getByRole('combobox', { name: 'Target config' })
    await expect.element(runOn).toHaveValue('')
    await expect.element(config).toBeVisible()
    await expect.element(config.getByRole('option', { name: 'production' })).toBeInTheDocument()

    await userEvent.selectOptions(config, 'production')
    // The cases run on the Demo (their file connection's), not on the editor's Staging.
    await expect.element(runOn).toHaveValue('c1')
    await useTestsStore(pinia).start()
    expect(runs).toEqual([expect.objectContaining({ target: { connectionId: 'c1', config: 'production' } })])

    // Back to each case's own: API and config go back to each case's own too.
    await userEvent.selectOptions(runOn, '')
    await expect.element(config).toHaveValue('')
  })
})
