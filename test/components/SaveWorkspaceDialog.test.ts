import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { userEvent } from 'vitest/browser'
import { render } from 'vitest-browser-vue'
import type { ExplorerBridge, WorkspaceView } from '../../src/shared/ipc/contract'
import { DEMO_VIEW, TEST_INFO } from './window-fixtures'

/**
 * Save workspace in the browser host on a workspace never saved: a name is
 * asked first (nothing is downloaded as "Untitled workspace"), what main
 * refuses shows in the dialog, which stays, and the save goes under the name.
 */


const untitled = (): WorkspaceView => ({
  name: 'Untitled workspace', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: true, queries: [], tests: [], sets: [], bindings: [],
})
const saves: Record<string, unknown>[] = []

const bridge: ExplorerBridge = {
  async invoke(channel, request) {
    if (channel === 'workspace:save') {
      const { name } = request as { name?: string }
      saves.push(request as Record<string, unknown>)
      // As main answers: a name that would be a path is refused, naming the rule.
      if (name?.includes('/')) {
        return { ok: false, error: { code: 'validation', message: 'Workspace name: a name cannot hold / or \\.', problems: [{ field: 'name', message: 'a name cannot hold / or \\' }] } } as never
      }
      const fileName = `${name ?? 'Untitled workspace'}.qxw.json`
      return { ok: true, data: { workspace: { ...untitled(), name: name ?? 'Untitled workspace', fileName, dirty: false }, download: { fileName, text: '{}' } } } as never
    }
    const answers: Record<string, unknown> = {
      'app:info': TEST_INFO,
      'connections:list': [DEMO_VIEW],
      'api:learn': { description: null, absence: { reason: 'not-found', status: 404 } },
      'history:list': [],
      'workspace:current': { workspace: untitled(), draft: null },
    }
    return { ok: true, data: answers[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
  saves.length = 0
})

describe('SaveWorkspaceDialog', () => {
  it('asks a name before the first download, shows what is refused, and saves under the name given', async () => {
    window.explorer = bridge
    const [{ default: SaveWorkspaceDialog }, { useConnectionsStore }, { useWorkspaceStore }] = await Promise.all([
      import('../../src/renderer/components/workspace/SaveWorkspaceDialog.vue'),
      import('../../src/renderer/stores/connections'),
      import('../../src/renderer/stores/workspace'),
    ])
    const pinia = createPinia()
    const screen = await render(SaveWorkspaceDialog, { global: { plugins: [pinia] } })
    await useConnectionsStore(pinia).load()
    const workspace = useWorkspaceStore(pinia)
    await workspace.start()

    const saving = workspace.save()
    const dialog = screen.getByRole('dialog', { name: 'Save workspace' })
    const name = dialog.getByRole('textbox', { name: 'Workspace name' })
    await expect.element(name).toHaveFocus()
    expect(saves).toEqual([])

    await userEvent.keyboard('{Enter}')
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Type a name for the workspace.')
    await name.fill('team/queries')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Workspace name: a name cannot hold / or \\.')
    await expect.element(dialog).toBeVisible()

    await name.fill('Team queries')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    expect(await saving).toBe('saved')
    await expect.element(dialog).not.toBeInTheDocument()
    expect(saves.at(-1)).toEqual({ name: 'Team queries' })
    expect(workspace.view?.name).toBe('Team queries')

    // Named now: the next save goes straight to a download under that name.
    expect(await workspace.save()).toBe('saved')
    expect(saves.at(-1)).toEqual({})
  })

  it('Cancel saves nothing', async () => {
    window.explorer = bridge
    const [{ default: SaveWorkspaceDialog }, { useConnectionsStore }, { useWorkspaceStore }] = await Promise.all([
      import('../../src/renderer/components/workspace/SaveWorkspaceDialog.vue'),
      import('../../src/renderer/stores/connections'),
      import('../../src/renderer/stores/workspace'),
    ])
    const pinia = createPinia()
    const screen = await render(SaveWorkspaceDialog, { global: { plugins: [pinia] } })
    await useConnectionsStore(pinia).load()
    const workspace = useWorkspaceStore(pinia)
    await workspace.start()
    const saving = workspace.save()
    await screen.getByRole('dialog', { name: 'Save workspace' }).getByRole('button', { name: 'Cancel' }).click()
    expect(await saving).toBe('cancelled')
    expect(saves).toEqual([])
  })
})
