import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { userEvent } from 'vitest/browser'
import { render } from 'vitest-browser-vue'
import type { ConnectionView, RecentWorkspace } from '../../src/shared/ipc/contract'
import { activeWindow, clearWindowAfterEach, recordingBridge } from './mount-with-bridge'

/**
 * The window's two menu buttons, Copy as and Open workspace, answer the
 * keyboard alike (controls/MenuPopover.vue), as any menu does: opening
 * puts the focus on the first item, the arrows move and wrap, Home and End go
 * to the ends, Escape closes back on the button, and Tab away or a choice
 * closes it.
 */

const recent = (id: string, name: string): RecentWorkspace => ({ id, name, fileName: `${name}.qxw.json`, folder: '/home/me', at: '2026-01-01T00:00:00Z', kind: 'file' })

const { bridge } = recordingBridge({ 'workspace:recent': [recent('w1', 'Cities'), recent('w2', 'Rivers')] })

clearWindowAfterEach()

const demo: ConnectionView = {
  id: 'demo', builtIn: false, name: 'demo', authUrl: 'http://127.0.0.1:1', queryUrl: 'http://127.0.0.1:1/query', workspace: 'world', api: 'places', clientId: 'c',
  hasSecret: true, tokenRequestsLastHour: 0,
}

async function mountCopyAs() {
  const pinia = activeWindow(bridge)
  const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
  const connections = useConnectionsStore()
  connections.connections = [demo]
  connections.selectedId = demo.id
  const { default: CopyAsMenu } = await import('../../src/renderer/components/chain/CopyAsMenu.vue')
  const screen = await render(CopyAsMenu, { props: { disabled: false }, global: { plugins: [pinia] } })
  return { screen, button: screen.getByRole('button', { name: 'Copy as' }), menuName: 'Copy as', items: ['curl', 'TypeScript', 'Python', 'Request URL'] }
}

async function mountOpenWorkspace() {
  const pinia = activeWindow(bridge)
  const { default: OpenWorkspaceMenu } = await import('../../src/renderer/components/workspace/OpenWorkspaceMenu.vue')
  const screen = await render(OpenWorkspaceMenu, { global: { plugins: [pinia] } })
  return { screen, button: screen.getByRole('button', { name: 'Open workspace' }), menuName: 'Open workspace', items: ['Open file…', 'Cities', 'Rivers'] }
}

describe.each([
  ['Copy as', mountCopyAs],
  ['Open workspace', mountOpenWorkspace],
])('%s menu', (_, mount) => {
  it('answers the keyboard as any menu does', async () => {
    const { screen, button, menuName, items } = await mount()
    const item = (k: number) => screen.getByRole('menu', { name: menuName }).getByRole('menuitem').nth(k)
    await button.click()
    await expect.element(item(0)).toHaveFocus()
    await expect.element(item(0)).toHaveTextContent(items[0]!)
    await expect.element(button).toHaveAttribute('aria-expanded', 'true')

    await userEvent.keyboard('{ArrowDown}')
    await expect.element(item(1)).toHaveFocus()
    await userEvent.keyboard('{ArrowUp}{ArrowUp}')
    await expect.element(item(items.length - 1)).toHaveFocus()
    await userEvent.keyboard('{Home}')
    await expect.element(item(0)).toHaveFocus()
    await userEvent.keyboard('{End}')
    await expect.element(item(items.length - 1)).toHaveFocus()
    await expect.element(item(items.length - 1)).toHaveTextContent(items.at(-1)!)

    await userEvent.keyboard('{Escape}')
    await expect.element(screen.getByRole('menu')).not.toBeInTheDocument()
    await expect.element(button).toHaveFocus()
    await expect.element(button).toHaveAttribute('aria-expanded', 'false')

    // Focus leaving the menu and its button closes it: Tab on from the last item.
    await userEvent.keyboard('{Enter}')
    await expect.element(item(0)).toHaveFocus()
    await userEvent.keyboard('{End}{Tab}')
    await expect.element(screen.getByRole('menu')).not.toBeInTheDocument()

    // Choosing an item closes it too.
    await button.click()
    await item(items.length - 1).click()
    await expect.element(screen.getByRole('menu')).not.toBeInTheDocument()
  })
})
