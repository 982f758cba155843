import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { RecentWorkspace } from '../../src/shared/ipc/contract'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * "Open workspace": the menu asks main for the recent workspaces each time
 * it opens, lists each with where it is (its folder, or that it is the copy
 * the app kept), and says which was chosen; "Open file…" always leads.
 */

const fake = bridgeForFile()

const RECENT: RecentWorkspace[] = [
  { id: 'r1', name: 'Cities', fileName: 'cities.qxw.json', folder: '/home/ana/work', at: '2026-01-02T10:00:00.000Z', kind: 'file' },
  { id: 'r2', name: 'Films', fileName: 'films.qxw.json', folder: null, at: '2026-01-01T10:00:00.000Z', kind: 'copy' },
]

describe('OpenWorkspaceMenu', () => {
  it('lists the recent workspaces asked for as it opens, with where each is, and says which was chosen', async () => {
    const pinia = demoWindow(fake, { 'workspace:recent': RECENT })
    const { default: OpenWorkspaceMenu } = await import('../../src/renderer/components/workspace/OpenWorkspaceMenu.vue')
    const chosen: string[] = []
    const screen = await render(OpenWorkspaceMenu, { props: { onFile: () => chosen.push('file'), onRecent: (id: string) => chosen.push(id) }, global: { plugins: [pinia] } })
    expect(fake.calls.filter((call) => call.channel === 'workspace:recent')).toHaveLength(0)

    await screen.getByRole('button', { name: 'Open workspace' }).click()
    const menu = screen.getByRole('menu', { name: 'Open workspace' })
    await expect.element(menu.getByRole('menuitem', { name: /^Cities/ })).toBeVisible()
    expect(menu.getByRole('menuitem').elements()).toHaveLength(3)
    await expect.element(menu.getByRole('menuitem').first()).toHaveTextContent('Open file…')
    await expect.element(menu.getByRole('menuitem').nth(1)).toHaveTextContent(/^Cities\s*\/home\/ana\/work$/)
    await expect.element(menu.getByRole('menuitem').nth(2)).toHaveTextContent(/^Films\s*copy kept by the app$/)
    await expect.element(menu.getByRole('menuitem', { name: /^Cities/ })).toHaveAttribute('title', '/home/ana/work/cities.qxw.json')
    await menu.getByRole('menuitem', { name: /^Films/ }).click()
    expect(chosen).toEqual(['r2'])
    expect(fake.calls.filter((call) => call.channel === 'workspace:recent')).toHaveLength(1)

    // Asked again at the next opening: another window may have opened one since.
    await screen.getByRole('button', { name: 'Open workspace' }).click()
    await screen.getByRole('menu', { name: 'Open workspace' }).getByRole('menuitem', { name: 'Open file…' }).click()
    expect(chosen).toEqual(['r2', 'file'])
    expect(fake.calls.filter((call) => call.channel === 'workspace:recent')).toHaveLength(2)
  })
})
