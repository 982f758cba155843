import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The two targets of a comparison, each control named for its side: a
 * connection, a config (emptied: the service's default), a version whose
 * hint is the connection's own, and one depth for both.
 */

const fake = bridgeForFile()

const FILMS: ConnectionView = { ...DEMO_CONNECTION, id: 'c2', name: 'Films', builtIn: false, version: '2' } as ConnectionView

describe('CompareTargets', () => {
  it("sets each side's connection, config, version and the depth, by controls named for their side", async () => {
    const pinia = demoWindow(fake, { 'connections:list': [DEMO_CONNECTION, FILMS] })
    const [{ default: CompareTargets }, { useConnectionsStore }, { useCompareStore }] = await Promise.all([
      import('../../src/renderer/components/compare/CompareTargets.vue'),
      import('../../src/renderer/stores/connections'),
      import('../../src/renderer/stores/compare'),
    ])
    await useConnectionsStore(pinia).load()
    const compare = useCompareStore(pinia)
    const screen = await render(CompareTargets, { global: { plugins: [pinia] } })
    const targets = screen.getByRole('group', { name: 'Targets' })

    await targets.getByRole('combobox', { name: 'Connection B' }).selectOptions('Films')
    await expect.poll(() => compare.b.connectionId).toBe('c2')
    await expect.element(targets.getByRole('textbox', { name: 'Version B' })).toHaveAttribute('placeholder', 'own (2)')
    await expect.element(targets.getByRole('textbox', { name: 'Version A' })).toHaveAttribute('placeholder', 'none')

    await userEvent.fill(targets.getByRole('combobox', { name: 'Config B' }), 'production')
    await userEvent.keyboard('{Enter}')
    await expect.poll(() => compare.b.config).toBe('production')
    await userEvent.fill(targets.getByRole('combobox', { name: 'Config B' }), '')
    await userEvent.keyboard('{Enter}')
    await expect.poll(() => compare.b.config).toBe('default')

    await userEvent.fill(targets.getByRole('textbox', { name: 'Version A' }), ' 3 ')
    await userEvent.keyboard('{Tab}')
    await expect.poll(() => compare.a.version).toBe('3')

    await targets.getByRole('combobox', { name: 'Depth' }).selectOptions('top 50')
    expect(compare.depth).toBe(50)
  })
})
