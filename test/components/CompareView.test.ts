import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { ApiDescription } from '../../src/shared/api-description'
import { answeredSide, comparison, failedSide } from '../../src/shared/compare/comparison'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Compare view: "Config A vs config B" sets both targets, Run comparison
 * sends the editor's chain to both at once and says it is running (with
 * Cancel, which keeps nothing and says so), a comparison shows its rank
 * changes, and when one side fails the other's ranking still shows, with
 * why there are no figures. Without a second configuration or connection the
 * presets say why they cannot help.
 */

const fake = bridgeForFile()

const DESCRIPTION: ApiDescription = {
  workspace: 'world', api: 'places', public: false, configs: ['default', 'production'],
  endpoints: [{ name: 'search', kind: 'search', stackable: false, output: ['OBJ'], parameters: [{ name: 'query', type: 'STRING', required: true }] }],
}

const city = (id: string) => ({ rank: 1, probability: 1, tuple: [{ id, class: ['city'], attributes: { name: `City ${id}` } }] })
const reply = (ids: string[]) => ({ status: 200, body: [{ items: ids.map(city) }, { total: ids.length, stats: [] }] })

async function mount(description: ApiDescription = DESCRIPTION, connections: ConnectionView[] = [DEMO_CONNECTION]) {
  const pinia = demoWindow(fake, { 'api:describe': description, 'api:learn': { description, absence: null }, 'connections:list': connections, 'query:cancel': { cancelled: true } })
  fake.hold('compare:run')
  const [{ default: CompareView }, { useConnectionsStore }, { useChainStore }] = await Promise.all([
    import('../../src/renderer/components/compare/CompareView.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/chain'),
  ])
  const connectionsStore = useConnectionsStore(pinia)
  await connectionsStore.load()
  await expect.poll(() => connectionsStore.description).not.toBeNull()
  await useChainStore(pinia).loadRequest({ workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'results', options: { count: 10 } })
  const screen = await render(CompareView, { global: { plugins: [pinia] } })
  return { view: screen.getByRole('region', { name: 'Compare view' }) }
}

describe('CompareView', () => {
  it('compares two configurations: sends the chain to both, says it is running, and shows the rank changes', async () => {
    const { view } = await mount()
    await expect.element(view.getByText('Choose two targets and press Run comparison.')).toBeVisible()
    await view.getByRole('button', { name: 'Config A vs config B' }).click()
    await view.getByRole('button', { name: 'Run comparison' }).click()
    await expect.element(view.getByRole('status')).toHaveTextContent(/^Running on A and B…/)
    await expect.poll(() => fake.held.length).toBe(1)
    expect(fake.held[0]!.request).toMatchObject({
      request: { steps: [{ endpoint: 'search', parameters: { query: 'san' } }] },
      a: { connectionId: 'c1', config: 'default' },
      b: { connectionId: 'c1', config: 'production' },
    })
    fake.held[0]!.answer(comparison(10, answeredSide('A · Demo · config default', reply(['1', '2', '3']), 5, 10), answeredSide('B · Demo · config production', reply(['2', '1', '4']), 6, 10)))
    await expect.element(view.getByRole('table', { name: 'Rank changes' })).toBeVisible()
    expect(view.getByRole('table', { name: 'Rank changes' }).getByRole('rowheader').elements()).toHaveLength(4)
    await expect.element(view.getByRole('button', { name: 'Export comparison' })).toBeEnabled()
    await expect.element(view.getByRole('button', { name: 'Run comparison' })).toBeVisible()
    expect(view.getByText('No figures:').elements()).toHaveLength(0)
  })

  it("when one side fails, shows the other's ranking and why there are no figures", async () => {
    const { view } = await mount()
    await view.getByRole('button', { name: 'Config A vs config B' }).click()
    await view.getByRole('button', { name: 'Run comparison' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held[0]!.answer(comparison(10, answeredSide('A', reply(['71137', '1257416']), 5, 10), failedSide('B', 500, 'The service answered 500.', 3)))
    await expect.element(view.getByText('No figures: a side failed, so there is nothing to compare its ranking with.')).toBeVisible()
    const table = view.getByRole('table', { name: 'Top 10 of A' })
    await expect.element(table).toBeVisible()
    expect(table.getByRole('rowheader').elements().map((cell) => cell.textContent?.replace(/\s+/g, ' ').trim())).toEqual(['City 71137 71137', 'City 1257416 1257416'])
  })

  it('cancels a comparison running, keeping nothing, and says so', async () => {
    const { view } = await mount()
    await view.getByRole('button', { name: 'Config A vs config B' }).click()
    await view.getByRole('button', { name: 'Run comparison' }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    await view.getByRole('button', { name: 'Cancel' }).click()
    await expect.element(view.getByText('Cancelled. Press Run comparison to try again.')).toBeVisible()
    await expect.element(view.getByRole('button', { name: 'Run comparison' })).toBeVisible()
  })

  it('says why the presets cannot help with one configuration and one connection', async () => {
    const { view } = await mount({ ...DESCRIPTION, configs: ['default'] })
    await expect.element(view.getByRole('button', { name: 'Config A vs config B' })).toBeDisabled()
    await expect.element(view.getByRole('button', { name: 'Config A vs config B' })).toHaveAttribute('title', 'The API describes only one configuration here: name another in Config B.')
    await expect.element(view.getByRole('button', { name: 'Same query on two connections' })).toHaveAttribute('title', 'There is only one connection: add another with New connection in the top bar.')
  })
})
