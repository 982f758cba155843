import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia, setActivePinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import type { ConnectionView, ExplorerBridge } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import type { ResultItem } from '../../src/shared/responses'
import { columnsFor } from '../../src/shared/results/table'

/**
 * Issue 23 §2, items 1 and 3, as a user meets them: the export dialog
 * offers the rows Load more added, the grid's columns with the headers the
 * file gets, and a file name after the saved query; the Copy as menu offers
 * the Demo's curl for the Demo alone and gets its text from the main process.
 */

const sent: { channel: string; request: unknown }[] = []
const bridge: ExplorerBridge = {
  async invoke(channel, request) {
    sent.push({ channel, request })
    const answers: Record<string, unknown> = { 'export:start': null, 'copy-as:demo-with-secret': { text: 'DEMO CURL TEXT' } }
    return { ok: true, data: answers[channel] ?? null } as never
  },
}

afterEach(() => {
  delete window.explorer
  sent.length = 0
  document.body.innerHTML = ''
})

const request: QueryRequest = {
  workspace: 'world',
  api: 'places',
  steps: [
    { endpoint: 'search', parameters: { query: 'san' } },
    { endpoint: 'continent:FILTER', parameters: { value: '1("Europe")' } },
  ],
  responseType: 'results',
  options: { count: 10 },
}

const item = (rank: number): ResultItem =>
  ({ rank, probability: 1 - rank / 100, tuple: [{ id: `id${rank}`, class: ['city'], attributes: { name: `Town ${rank}`, country: 'ES', population: rank } }] }) as ResultItem

const connection = (id: string, builtIn: boolean): ConnectionView => ({
  id, builtIn, name: id, authUrl: 'http://127.0.0.1:1', queryUrl: 'http://127.0.0.1:1/query', workspace: 'world', api: 'places', clientId: 'c',
  hasSecret: true, tokenRequestsLastHour: 0,
})

describe('Export dialog', () => {
  it('after Load more offers the loaded rows first, the grid\'s columns as the file names them, and a name after the saved query', async () => {
    window.explorer = bridge
    const pinia = createPinia()
    setActivePinia(pinia)
    const { useQueryStore } = await import('../../src/renderer/stores/query')
    const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')
    const query = useQueryStore()
    query.shown = { connectionId: 'demo', request }
    query.items = Array.from({ length: 30 }, (_, i) => item(i + 1))
    query.shownCount = 10
    useWorkspaceStore().savedQuery = 'San Europe'
    const columns = columnsFor(query.items, { chosen: new Set(['1.name', '1.country']) })
    const { default: ExportDialog } = await import('../../src/renderer/components/results/ExportDialog.vue')
    const screen = await render(ExportDialog, { props: { open: false, columns }, global: { plugins: [pinia] } })
    // The Export button opens it, as in the results panel.
    await screen.rerender({ open: true, columns })

    const dialog = screen.getByRole('dialog', { name: 'Export results' })
    await expect.element(dialog.getByRole('radio', { name: 'Loaded rows' })).toBeChecked()
    const grid = dialog.getByRole('radiogroup', { name: 'Columns' }).getByRole('radio', { name: 'As the grid shows them' })
    await expect.element(grid).toBeChecked()
    await expect.element(grid).toHaveAccessibleDescription('6 columns: rank, probability, id, class, name, country')
    await expect.element(dialog.getByRole('status', { name: 'File name' })).toHaveTextContent('San Europe.csv')

    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    expect(sent.at(-1)).toEqual({
      channel: 'export:start',
      request: { connectionId: 'demo', request, format: 'csv', rows: 30, columns: ['rank', 'probability', '1.id', '1.class', '1.name', '1.country'], savedQuery: 'San Europe' },
    })

    await dialog.getByRole('radio', { name: 'Every column the service sends' }).click()
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    expect(sent.at(-1)?.request).not.toHaveProperty('columns')

    await dialog.getByRole('radio', { name: 'JSON' }).click()
    await expect.element(dialog.getByRole('radiogroup', { name: 'Columns' })).not.toBeInTheDocument()
    await expect.element(dialog.getByRole('status', { name: 'File name' })).toHaveTextContent('San Europe.json')
  })
})

describe('Copy as menu', () => {
  async function mount(selected: ConnectionView) {
    window.explorer = bridge
    const pinia = createPinia()
    setActivePinia(pinia)
    const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
    const { useChainStore } = await import('../../src/renderer/stores/chain')
    const connections = useConnectionsStore()
    connections.connections = [selected]
    connections.selectedId = selected.id
    await useChainStore().loadRequest(request)
    const { default: CopyAsMenu } = await import('../../src/renderer/components/chain/CopyAsMenu.vue')
    return render(CopyAsMenu, { props: { disabled: false }, global: { plugins: [pinia] } })
  }

  it("offers curl with the Demo's secret for the Demo only, and asks the main process for its text", async () => {
    const demo = await mount(connection('demo', true))
    await demo.getByRole('button', { name: 'Copy as' }).click()
    const menu = demo.getByRole('menu', { name: 'Copy as' })
    expect(menu.getByRole('menuitem').elements().map((entry) => entry.textContent)).toEqual(['curl', "curl, with the Demo's secret", 'TypeScript', 'Python', 'Request URL'])
    await menu.getByRole('menuitem', { name: "curl, with the Demo's secret" }).click()
    await expect.poll(() => sent.find((call) => call.channel === 'copy-as:demo-with-secret')?.request).toMatchObject({ connectionId: 'demo', request: { steps: request.steps } })
    demo.unmount()

    const own = await mount(connection('mine', false))
    await own.getByRole('button', { name: 'Copy as' }).click()
    expect(own.getByRole('menu', { name: 'Copy as' }).getByRole('menuitem').elements().map((entry) => entry.textContent)).toEqual(['curl', 'TypeScript', 'Python', 'Request URL'])
  })
})
