import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent, type Locator } from 'vitest/browser'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import type { SavedQuery } from '../../src/shared/workspace/workspace-file'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Saved queries list as a user works it: each query with what it runs
 * on here, Save query naming a new one from its search text, a query with
 * unsaved editor changes asking before another is loaded, Rename and Delete
 * asking first, a changed workspace asking before a new one replaces it, and
 * the list as one Tab stop walked with the arrow keys.
 */

const fake = bridgeForFile()

const search = (text: string): QueryRequest => ({
  workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: text } }], responseType: 'results', options: { count: 10 },
})
const saved = (name: string, connection: string, text: string): SavedQuery => ({ name, connection, notes: '', request: search(text) })

function view(queries: SavedQuery[], dirty = false): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_CONNECTION
  return {
    name: 'Cities', fileName: 'cities.qxw.json', folder: '/home/ana', saveTarget: 'download', judges: [], dirty, tests: [], sets: [], queries,
    bindings: [
      { fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described } },
      { fileConnectionId: 'prod', connectionId: null, how: 'none', connection: { id: 'prod', ...described, name: 'Production' } },
    ],
  } as WorkspaceView
}

const QUERIES = [saved('San', 'demo', 'san'), saved('Rome', 'demo', 'rome'), saved('Paris', 'prod', 'paris')]

async function mount(workspace: WorkspaceView = view(QUERIES)) {
  const pinia = demoWindow(fake, { 'workspace:current': { workspace, draft: null }, 'workspace:recent': [] })
  const [{ default: SavedQueriesPanel }, { useConnectionsStore }, { useWorkspaceStore }, { useChainStore }, { useToastsStore }] = await Promise.all([
    import('../../src/renderer/components/workspace/SavedQueriesPanel.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/stores/chain'),
    import('../../src/renderer/stores/toasts'),
  ])
  await useConnectionsStore(pinia).load()
  const store = useWorkspaceStore(pinia)
  await store.start()
  const screen = await render(SavedQueriesPanel, { global: { plugins: [pinia] } })
  const panel = screen.getByRole('region', { name: 'Saved queries' })
  await expect.element(panel.getByRole('heading', { name: 'Cities' })).toBeVisible()
  const toasts = () => useToastsStore(pinia).toasts.map((toast) => toast.message)
  return { screen, panel, store, chain: useChainStore(pinia), toasts }
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)
/** A query's own button in the list (its name, then what it runs on). */
const pick = (panel: Locator, name: string) => panel.getByRole('list', { name: 'Queries in this workspace' }).getByRole('button', { name: new RegExp(`^${name} (on|Not|unsaved)`) })

describe('SavedQueriesPanel', () => {
  it('lists each query with what it runs on, and Save query names a new one after its search text', async () => {
    const mounted = await mount()
    const { panel, chain, toasts } = mounted
    const list = panel.getByRole('list', { name: 'Queries in this workspace' })
    expect(list.getByRole('listitem').elements()).toHaveLength(3)
    await expect.element(pick(panel, 'San')).toHaveAccessibleName('San on Demo')
    await expect.element(pick(panel, 'Rome')).toHaveAccessibleName('Rome on Demo')
    await expect.element(pick(panel, 'Paris')).toHaveAccessibleName('Paris Not connected: Production')
    await expect.element(panel.getByRole('heading', { name: 'Cities' })).toHaveAttribute('title', '/home/ana/cities.qxw.json')

    // The editor asks "san" again: "San" is taken, so the name offered is "San 2".
    await chain.loadRequest(search('san'))
    fake.answers['workspace:save-query'] = view([...QUERIES, saved('San 2', 'demo', 'san')])
    await panel.getByRole('button', { name: 'Save query', exact: true }).click()
    const dialog = mounted.screen.getByRole('dialog', { name: 'Save query' })
    await expect.element(dialog.getByRole('textbox', { name: 'Query name' })).toHaveValue('San 2')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.element(dialog).not.toBeInTheDocument()
    expect(sent('workspace:save-query')).toEqual([{ name: 'San 2', connectionId: 'c1', request: expect.objectContaining({ steps: search('san').steps }) }])
    await expect.element(pick(panel, 'San 2')).toHaveAttribute('aria-current', 'true')
    expect(toasts()).toContain('Saved “San 2”. Save the workspace (Ctrl+S) to keep it in the file.')

    // Now the editor started from "San 2": Save query updates it without asking a name.
    await panel.getByRole('button', { name: 'Save query', exact: true }).click()
    await expect.poll(() => sent('workspace:save-query')).toHaveLength(2)
    expect(sent('workspace:save-query').at(-1)).toEqual({ name: 'San 2', connectionId: 'c1', request: expect.objectContaining({ steps: search('san').steps }), previousName: 'San 2' })
    await expect.element(mounted.screen.getByRole('dialog')).not.toBeInTheDocument()
  })

  it('asks before loading another query over unsaved editor changes: Cancel keeps them, Discard loads', async () => {
    const mounted = await mount()
    const { panel, chain, screen } = mounted
    await pick(panel, 'San').click()
    await expect.element(pick(panel, 'San')).toHaveAttribute('aria-current', 'true')
    expect(chain.request(chain.responseType, 0, Number(chain.count), true).steps).toEqual(search('san').steps)

    await chain.loadRequest(search('sant'))
    await expect.element(pick(panel, 'San')).toHaveTextContent('unsaved')

    await pick(panel, 'Rome').click()
    const question = screen.getByRole('dialog', { name: 'Discard changes to “San”?' })
    await expect.element(question).toHaveAccessibleDescription('The editor holds changes to this saved query that are not saved yet.')
    await question.getByRole('button', { name: 'Cancel' }).click()
    await expect.element(question).not.toBeInTheDocument()
    await expect.element(pick(panel, 'San')).toHaveAttribute('aria-current', 'true')
    expect(chain.request(chain.responseType, 0, Number(chain.count), true).steps).toEqual(search('sant').steps)

    await pick(panel, 'Rome').click()
    await screen.getByRole('dialog', { name: 'Discard changes to “San”?' }).getByRole('button', { name: 'Discard' }).click()
    await expect.element(pick(panel, 'Rome')).toHaveAttribute('aria-current', 'true')
    expect(chain.request(chain.responseType, 0, Number(chain.count), true).steps).toEqual(search('rome').steps)
    expect(sent('workspace:save-query')).toEqual([])

    // A query whose connection is not here asks which one it runs on before anything loads.
    await pick(panel, 'Paris').click()
    await expect.element(screen.getByRole('dialog')).toBeVisible()
    await expect.element(pick(panel, 'Rome')).toHaveAttribute('aria-current', 'true')
  })

  it('renames and deletes a query only once the user says so', async () => {
    const mounted = await mount()
    const { panel, screen, toasts } = mounted
    const row = panel.getByRole('listitem').filter({ hasText: 'Rome' })

    fake.answers['workspace:rename-query'] = view([QUERIES[0]!, saved('Roma', 'demo', 'rome'), QUERIES[2]!])
    await row.getByRole('button', { name: 'Rename' }).click()
    const naming = screen.getByRole('dialog', { name: 'Rename “Rome”' })
    const name = naming.getByRole('textbox', { name: 'Query name' })
    await expect.element(name).toHaveValue('Rome')
    await name.fill('Roma')
    await naming.getByRole('button', { name: 'Rename', exact: true }).click()
    await expect.element(naming).not.toBeInTheDocument()
    expect(sent('workspace:rename-query')).toEqual([{ name: 'Rome', newName: 'Roma' }])
    await expect.element(pick(panel, 'Roma')).toBeVisible()

    fake.answers['workspace:delete-query'] = view([QUERIES[0]!, QUERIES[2]!])
    const roma = panel.getByRole('listitem').filter({ hasText: 'Roma' })
    await roma.getByRole('button', { name: 'Delete' }).click()
    const question = screen.getByRole('dialog', { name: 'Delete “Roma”?' })
    await question.getByRole('button', { name: 'Cancel' }).click()
    expect(sent('workspace:delete-query')).toEqual([])
    await roma.getByRole('button', { name: 'Delete' }).click()
    await screen.getByRole('dialog', { name: 'Delete “Roma”?' }).getByRole('button', { name: 'Delete' }).click()
    await expect.poll(() => sent('workspace:delete-query')).toEqual([{ name: 'Roma' }])
    await expect.element(roma).not.toBeInTheDocument()
    expect(toasts()).toContain('Deleted “Roma”.')
  })

  it('asks to save a changed workspace before a new one replaces it', async () => {
    const mounted = await mount(view(QUERIES, true))
    const { panel, screen, toasts } = mounted
    await expect.element(panel.getByRole('heading', { name: 'Cities' })).toHaveTextContent('unsaved')

    await panel.getByRole('button', { name: 'New workspace' }).click()
    const question = screen.getByRole('dialog', { name: 'Save changes to “Cities”?' })
    await question.getByRole('button', { name: 'Cancel' }).click()
    expect(sent('workspace:new')).toEqual([])

    fake.answers['workspace:new'] = { ...view([]), name: 'Untitled workspace', fileName: null, folder: null }
    await panel.getByRole('button', { name: 'New workspace' }).click()
    await screen.getByRole('dialog', { name: 'Save changes to “Cities”?' }).getByRole('button', { name: 'Discard' }).click()
    await expect.element(panel.getByRole('heading', { name: 'Untitled workspace' })).toBeVisible()
    expect(sent('workspace:new')).toHaveLength(1)
    expect(sent('workspace:save')).toEqual([])
    await expect.element(panel).toHaveTextContent('No saved queries yet.')
    await expect.element(panel.getByRole('heading', { name: 'Untitled workspace' })).toHaveAttribute('title', 'Not saved to a file yet')
    expect(toasts()).toContain('A new, empty workspace is open. The editor keeps its query.')
  })

  it('is one Tab stop: the arrow keys walk the queries and their actions, Home and End the ends', async () => {
    const { panel } = await mount()
    const list = panel.getByRole('list', { name: 'Queries in this workspace' })
    // Only one control of the list takes Tab: the first query, none being selected.
    expect(list.element().querySelectorAll('[tabindex="0"]')).toHaveLength(1)
    ;(pick(panel, 'San').element() as HTMLElement).focus()
    await userEvent.keyboard('{ArrowDown}')
    await expect.element(pick(panel, 'Rome')).toHaveFocus()
    await userEvent.keyboard('{ArrowRight}')
    await expect.element(list.getByRole('listitem').filter({ hasText: 'Rome' }).getByRole('button', { name: 'Rename' })).toHaveFocus()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}')
    await expect.element(list.getByRole('listitem').filter({ hasText: 'Rome' }).getByRole('button', { name: 'Delete' })).toHaveFocus()
    await userEvent.keyboard('{ArrowDown}')
    await expect.element(list.getByRole('listitem').filter({ hasText: 'Paris' }).getByRole('button', { name: 'Delete' })).toHaveFocus()
    await userEvent.keyboard('{Home}')
    await expect.element(pick(panel, 'San')).toHaveFocus()
    await userEvent.keyboard('{End}')
    await expect.element(pick(panel, 'Paris')).toHaveFocus()
    // The stop stays where the user last was.
    expect(list.element().querySelectorAll('[tabindex="0"]')).toEqual(expect.objectContaining({ length: 1 }))
    expect(list.element().querySelector('[tabindex="0"]')).toBe(pick(panel, 'Paris').element())
  })
})
