import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { ApiDescription } from '../../src/shared/api-description'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import { DEMO_INFO } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The whole window at start and from the keyboard: a fresh chain starts on
 * the API's search endpoint, what main found at start is said in a toast
 * that stays, Ctrl/Cmd+digit picks a view (not over a dialog), Ctrl+Enter
 * runs from any view and brings the rows into view, Escape cancels the run,
 * Ctrl+S saves the workspace, and the skip link lands in the Results view.
 */

const fake = bridgeForFile()

const DESCRIPTION: ApiDescription = {
  workspace: 'world', api: 'places', public: false, configs: ['default'],
  endpoints: [
    { name: 'country', kind: 'facet-options', stackable: true, output: ['STRING'], parameters: [] },
    { name: 'search', kind: 'search', stackable: false, output: ['OBJ'], parameters: [{ name: 'query', type: 'STRING', required: true }] },
  ],
}
const NOTICE = 'Your settings file could not be read; it was set aside as settings.json.bad and defaults are in use.'
const EMPTY: WorkspaceView = { name: 'Untitled workspace', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], sets: [], bindings: [] }

async function mount() {
  const pinia = demoWindow(fake, {
    'app:info': { ...DEMO_INFO, notices: [NOTICE] },
    'api:describe': DESCRIPTION,
    'api:learn': { description: DESCRIPTION, absence: null },
    'workspace:current': { workspace: EMPTY, draft: null },
    'workspace:save': { workspace: { ...EMPTY, name: 'Mine' }, download: null },
    'history:list': [],
    'query:cancel': { cancelled: true },
  })
  fake.hold('query:run')
  const { default: ExplorerScreen } = await import('../../src/renderer/components/explorer/ExplorerScreen.vue')
  const screen = await render(ExplorerScreen, { global: { plugins: [pinia] } })
  const tabs = screen.getByRole('tablist', { name: 'Views' })
  await expect.element(screen.getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  return { screen, tabs }
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel)

describe('ExplorerScreen', () => {
  it("starts a fresh chain on the API's search endpoint, and says what main found at start until dismissed", async () => {
    const { screen } = await mount()
    await expect.element(screen.getByRole('textbox', { name: 'query' })).toHaveValue('')
    await expect.element(screen.getByRole('alert').filter({ hasText: NOTICE })).toBeVisible()
  })

  it('picks a view with Ctrl+digit (not over a dialog), runs from any view with Ctrl+Enter, and Escape cancels the run', async () => {
    const { screen, tabs } = await mount()
    await userEvent.keyboard('{Control>}6{/Control}')
    await expect.element(tabs.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{Control>}2{/Control}')
    await expect.element(tabs.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true')

    // A dialog keeps the keys: the view stays.
    const dialog = document.createElement('dialog')
    document.body.append(dialog)
    dialog.showModal()
    await userEvent.keyboard('{Control>}1{/Control}')
    await expect.element(tabs.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true')
    dialog.close()
    dialog.remove()

    await userEvent.keyboard('{Control>}5{/Control}')
    await expect.element(tabs.getByRole('tab', { name: 'Experiments' })).toHaveAttribute('aria-selected', 'true')
    await userEvent.fill(screen.getByRole('textbox', { name: 'query' }), 'san')
    await userEvent.keyboard('{Control>}{Enter}{/Control}')
    await expect.poll(() => fake.held.length).toBeGreaterThan(0)
    expect(fake.held[0]!.request).toMatchObject({ connectionId: 'c1', request: { steps: [{ endpoint: 'search', parameters: { query: 'san' } }] } })
    await expect.element(tabs.getByRole('tab', { name: 'Results' })).toHaveAttribute('aria-selected', 'true')

    await userEvent.keyboard('{Escape}')
    await expect.poll(() => sent('query:cancel').length).toBeGreaterThan(0)
  })

  it('saves the workspace with Ctrl+S, and the skip link puts the focus in the Results view', async () => {
    const { screen, tabs } = await mount()
    await userEvent.keyboard('{Control>}s{/Control}')
    // Never saved: the browser host asks a name before the first download.
    const naming = screen.getByRole('dialog', { name: 'Save workspace' })
    await naming.getByRole('textbox', { name: 'Workspace name' }).fill('Mine')
    await naming.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(() => sent('workspace:save').map((call) => call.request)).toEqual([{ name: 'Mine' }])
    await expect.element(naming).not.toBeInTheDocument()

    await userEvent.keyboard('{Control>}6{/Control}')
    await expect.element(tabs.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true')
    // Off screen until focused, as a keyboard user reaches it.
    ;(screen.getByRole('link', { name: 'Skip to results' }).element() as HTMLElement).focus()
    await userEvent.keyboard('{Enter}')
    await expect.element(tabs.getByRole('tab', { name: 'Results' })).toHaveAttribute('aria-selected', 'true')
    await expect.element(screen.getByRole('tabpanel', { name: 'Results' })).toHaveFocus()
  })
})
