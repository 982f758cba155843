import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent, type Locator } from 'vitest/browser'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The chain editor on an API that serves no description: it says what it
 * could not learn and how to go on, and the Endpoint box offers the names
 * this connection was used with (its saved queries, its runs in History),
 * not another connection's. A step added takes the focus; a card dragged by
 * its handle lands where it is dropped.
 */

const fake = bridgeForFile()

const request = (...endpoints: string[]): QueryRequest => ({
  workspace: 'world', api: 'places', steps: endpoints.map((endpoint) => ({ endpoint, parameters: {} })), responseType: 'results', options: { count: 10 },
})

function view(): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_CONNECTION
  return {
    name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, tests: [], sets: [],
    queries: [
      { name: 'Mine', connection: 'demo', notes: '', request: request('search', 'country:FILTER') },
      { name: 'Elsewhere', connection: 'other', notes: '', request: request('elsewhere_saved') },
    ],
    bindings: [
      { fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described } },
      { fileConnectionId: 'other', connectionId: 'c2', how: 'same', connection: { id: 'other', ...described, name: 'Other' } },
    ],
  }
}

const run = (connectionId: string, ...endpoints: string[]) => ({ id: `${connectionId}-${endpoints.join()}`, connectionId, request: request(...endpoints) })

async function mount(steps: string[] = ['']) {
  const pinia = demoWindow(fake, { 'history:list': [run('c1', 'population'), run('c2', 'elsewhere_ran')] })
  const [{ default: ChainEditor }, { useConnectionsStore }, { useWorkspaceStore }, { useChainStore }] = await Promise.all([
    import('../../src/renderer/components/chain/ChainEditor.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/stores/chain'),
  ])
  await useConnectionsStore(pinia).load()
  useWorkspaceStore(pinia).show(view())
  const chain = useChainStore(pinia)
  if (steps.some(Boolean)) await chain.loadRequest(request(...steps))
  const screen = await render(ChainEditor, { global: { plugins: [pinia] } })
  return { screen, chain, region: screen.getByRole('region', { name: 'Chain' }) }
}

/** The names the browser offers under an Endpoint box (its datalist). */
const offered = (box: Locator) => [...((box.element() as HTMLInputElement).list?.options ?? [])].map((option) => option.value)

describe('ChainEditor', () => {
  it('without a description says how to go on, and offers the endpoints this connection was used with', async () => {
    const { region } = await mount()
    await expect.element(region.getByText(
      'This API serves no description (404): type endpoint and parameter names (those used before are offered), and declare facets in the Facets panel.',
    )).toBeVisible()
    const box = region.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })
    await expect.poll(() => offered(box).sort()).toEqual(['country:FILTER', 'population', 'search'])
  })

  it('focuses the step added, and removes a step', async () => {
    const { region, chain } = await mount(['search'])
    await region.getByRole('button', { name: 'Add step' }).click()
    const second = region.getByRole('group', { name: 'Step 2' })
    await expect.element(second.getByRole('combobox', { name: 'Endpoint' })).toHaveFocus()
    await userEvent.keyboard('population')
    await userEvent.keyboard('{Tab}')

    await region.getByRole('button', { name: 'Add context step' }).click()
    await expect.element(region.getByRole('group', { name: 'Step 3' })).toBeVisible()
    expect(region.getByRole('group', { name: 'Step 3' }).element().contains(document.activeElement)).toBe(true)

    await region.getByRole('group', { name: 'Step 1' }).getByRole('button', { name: 'Remove step' }).click()
    await expect.element(region.getByRole('group', { name: 'Step 3' })).not.toBeInTheDocument()
    expect(chain.chain.map((entry) => ('endpoint' in entry.step ? entry.step.endpoint : 'context'))).toEqual(['population', 'context'])
  })

  it('moves a card dragged by its handle to where it is dropped', async () => {
    const { region, chain } = await mount(['search', 'country:FILTER', 'population'])
    const handle = region.getByRole('group', { name: 'Step 3' }).element().querySelector('[draggable="true"]')!
    const target = region.getByRole('group', { name: 'Step 1' }).element()
    // The browser's own drag events, as a pointer drag sends them.
    const data = new DataTransfer()
    handle.dispatchEvent(new DragEvent('dragstart', { bubbles: true, dataTransfer: data }))
    target.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: data }))
    target.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }))
    handle.dispatchEvent(new DragEvent('dragend', { bubbles: true, dataTransfer: data }))
    await expect.poll(() => chain.chain.map((entry) => ('endpoint' in entry.step ? entry.step.endpoint : ''))).toEqual(['population', 'search', 'country:FILTER'])
    await expect.element(region.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('population')
  })
})
