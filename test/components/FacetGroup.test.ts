import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { defineComponent, h } from 'vue'
import { render } from 'vitest-browser-vue'
import type { ApiDescription } from '../../src/shared/api-description'
import type { AppInfo, ConnectionView, ExplorerBridge } from '../../src/shared/ipc/contract'

/**
 * A facet whose options cannot be read says why, in full: the reason a
 * service gives (an account without the role, here) is the part a user needs,
 * and it comes last. The facet sits in a column as narrow as the app's.
 */

const REASON = 'The account "reader" lacks the API Usage role that the Query API requires'
const MESSAGE = `The query was refused (403: ${REASON}). Check the account and its role.`

const DESCRIPTION: ApiDescription = {
  workspace: 'world',
  api: 'places',
  public: false,
  configs: ['default'],
  endpoints: [
    { name: 'search', kind: 'search', stackable: false, output: ['OBJ'], parameters: [{ name: 'query', type: 'STRING', required: true }] },
    { name: 'country', kind: 'facet-options', stackable: true, output: ['STRING'], parameters: [] },
    { name: 'country:FILTER', kind: 'facet-filter', stackable: true, output: ['OBJ'], parameters: [{ name: 'value', type: 'TUPLE_LIST', required: true }] },
  ],
}
const CONNECTION: ConnectionView = {
  id: 'c1', name: 'Reader', authUrl: 'http://127.0.0.1:1', queryUrl: 'http://127.0.0.1:1', workspace: 'world', api: 'places',
  clientId: 'reader', builtIn: false, hasSecret: true, tokenRequestsLastHour: 1,
}
const INFO: AppInfo = { version: 'test', host: 'browser', keychain: { kind: 'os', detail: '' }, demo: null, lastConnectionId: 'c1', notices: [] }

/** The main process as this window sees it: everything answers, but every query is refused with a 403. */
const bridge: ExplorerBridge = {
  async invoke(channel) {
    const answers: Record<string, unknown> = { 'app:info': INFO, 'connections:list': [CONNECTION], 'api:describe': DESCRIPTION, 'connections:use': { lastConnectionId: 'c1' } }
    if (channel === 'query:run') return { ok: false, error: { code: 'auth', message: MESSAGE, status: 403 } }
    return { ok: true, data: answers[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
})

/** The window's client picks its bridge when it loads: the stand-in goes in first. */
async function withBridge() {
  window.explorer = bridge
  const [{ default: FacetGroup }, { useConnectionsStore }, { useQueryStore }] = await Promise.all([
    import('../../src/renderer/components/facets/FacetGroup.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/query'),
  ])
  return { FacetGroup, useConnectionsStore, useQueryStore }
}

describe('FacetGroup', () => {
  it('shows the whole reason its options could not be read, wrapped, not cut off', async () => {
    const { FacetGroup, useConnectionsStore, useQueryStore } = await withBridge()
    const pinia = createPinia()
    // As wide as the facets column at 1024 px.
    const Column = defineComponent(() => () => h('div', { style: 'width: 240px' }, [h(FacetGroup, { facet: 'country' })]))
    const screen = await render(Column, { global: { plugins: [pinia] } })
    await useConnectionsStore(pinia).load()
    useQueryStore(pinia).updateStep(0, { endpoint: 'search', parameters: { query: 'san' } })

    const error = screen.getByText(/^Options could not be read:/)
    await expect.element(error).toBeVisible()
    await expect.element(error).toHaveTextContent(REASON)
    const box = error.element() as HTMLElement
    // Every line of it is on screen: nothing clipped below or to the right.
    expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight + 1)
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth + 1)
    expect(box.getBoundingClientRect().height).toBeGreaterThan(3 * 14)
  })
})
