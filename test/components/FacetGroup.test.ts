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

const REFUSED = { ok: false, error: { code: 'auth', message: MESSAGE, status: 403 } } as const
/** What a query answers; each test may set its own (the client keeps the bridge it first saw, so the bridge stays one object). */
let runReply: unknown = REFUSED

/** The main process as this window sees it: everything answers, and a query gets runReply (by default refused with a 403). */
const bridge: ExplorerBridge = {
  async invoke(channel) {
    const answers: Record<string, unknown> = { 'app:info': INFO, 'connections:list': [CONNECTION], 'api:describe': DESCRIPTION, 'api:learn': { description: DESCRIPTION, absence: null }, 'connections:use': { lastConnectionId: 'c1' } }
    if (channel === 'query:run') return runReply as never
    return { ok: true, data: answers[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
  runReply = REFUSED
})

/** The window's client picks its bridge when it loads: the stand-in goes in first. */
async function withBridge() {
  window.explorer = bridge
  const [{ default: FacetGroup }, { useConnectionsStore }, { useChainStore }] = await Promise.all([
    import('../../src/renderer/components/facets/FacetGroup.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/chain'),
  ])
  const { useFacetsStore } = await import('../../src/renderer/stores/facets')
  return { FacetGroup, useConnectionsStore, useChainStore, useFacetsStore }
}

const RLO = '\u202E'

/** A facet options answer (results whose tuple objects carry a name and a count), as query:run replies with it. */
function optionsReply(options: { id: string; name: string; count: number }[]) {
  const items = options.map((option, index) => ({
    rank: index + 1,
    probability: 1,
    tuple: [{ id: option.id, class: ['country'], attributes: { name: option.name, count: option.count } }],
  }))
  const timings = { connectMs: null, firstByteMs: 1, totalMs: 1 }
  return { ok: true, data: { url: 'http://127.0.0.1:1/q', status: 200, contentType: 'application/json', bytes: 1, body: { items }, timings, cached: false } }
}

describe('FacetGroup', () => {
  it('shows the whole reason its options could not be read, wrapped, not cut off', async () => {
    const { FacetGroup, useConnectionsStore, useChainStore } = await withBridge()
    const pinia = createPinia()
    // As wide as the facets column at 1024 px.
    const Column = defineComponent(() => () => h('div', { style: 'width: 240px' }, [h(FacetGroup, { facet: 'country' })]))
    const screen = await render(Column, { global: { plugins: [pinia] } })
    await useConnectionsStore(pinia).load()
    useChainStore(pinia).updateStep(0, { endpoint: 'search', parameters: { query: 'san' } })

    const error = screen.getByText(/^Options could not be read:/)
    await expect.element(error).toBeVisible()
    await expect.element(error).toHaveTextContent(REASON)
    const box = error.element() as HTMLElement
    // Every line of it is on screen: nothing clipped below or to the right.
    expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight + 1)
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth + 1)
    expect(box.getBoundingClientRect().height).toBeGreaterThan(3 * 14)
  })

  it("shows an option label's bidi override as a visible escape, and filters by the id as sent", async () => {
    // "Invoice", RLO, "txt.exe" would read as "Invoiceexe.txt" if the RLO were obeyed.
    runReply = optionsReply([{ id: `ye${RLO}01`, name: `Invoice${RLO}txt.exe`, count: 3 }])
    const { FacetGroup, useConnectionsStore, useChainStore, useFacetsStore } = await withBridge()
    const pinia = createPinia()
    const screen = await render(FacetGroup, { props: { facet: 'country' }, global: { plugins: [pinia] } })
    await useConnectionsStore(pinia).load()
    useChainStore(pinia).updateStep(0, { endpoint: 'search', parameters: { query: 'san' } })

    const label = screen.getByText('Invoice⟨U+202E⟩txt.exe')
    await expect.element(label).toBeVisible()
    const option = label.element().closest('label') as HTMLElement
    expect(option.title).toBe('Invoice⟨U+202E⟩txt.exe (ye⟨U+202E⟩01)')
    const box = screen.getByRole('checkbox', { name: 'Invoice⟨U+202E⟩txt.exe' })
    await expect.element(box).toBeInTheDocument()
    expect(screen.container.textContent).not.toContain(RLO)
    expect(option.title).not.toContain(RLO)
    expect(box.element().getAttribute('aria-label')).not.toContain(RLO)

    await box.click()
    expect(useFacetsStore(pinia).selectedIds('country')).toEqual([`ye${RLO}01`])
  })
  it('names each facet\'s Clear button and Selection box after the facet, and Clear clears only its own', async () => {
    const { FacetGroup, useConnectionsStore, useChainStore, useFacetsStore } = await withBridge()
    const pinia = createPinia()
    const Column = defineComponent(() => () => h('div', { style: 'width: 240px' }, [h(FacetGroup, { facet: 'country' }), h(FacetGroup, { facet: 'continent' })]))
    const screen = await render(Column, { global: { plugins: [pinia] } })
    await useConnectionsStore(pinia).load()
    useChainStore(pinia).updateStep(0, { endpoint: 'search', parameters: { query: 'san' } })
    const facets = useFacetsStore(pinia)
    facets.toggle('country', 'FR', true)
    facets.toggle('continent', 'Europe', true)

    await expect.element(screen.getByRole('combobox', { name: 'Selection of country' })).toBeVisible()
    await expect.element(screen.getByRole('combobox', { name: 'Selection of continent' })).toBeVisible()
    expect(screen.getByRole('button', { name: 'Clear', exact: true }).elements()).toHaveLength(0)
    expect(screen.getByRole('combobox', { name: 'Selection', exact: true }).elements()).toHaveLength(0)

    await screen.getByRole('button', { name: 'Clear country' }).click()
    expect(facets.selectedIds('country')).toEqual([])
    expect(facets.selectedIds('continent')).toEqual(['Europe'])
    await expect.element(screen.getByRole('button', { name: 'Clear country' })).toBeDisabled()
    await expect.element(screen.getByRole('button', { name: 'Clear continent' })).toBeEnabled()
  })
})
