import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { AppInfo, ExplorerBridge } from '../../src/shared/ipc/contract'
import { activeWindow } from './mount-with-bridge'

/**
 * The Options panel lists the options the app does not know (a deployment's
 * own, kept from a pasted URL) as rows a user edits, adds and removes, each
 * control named for the option it holds.
 */

const INFO: AppInfo = { version: 'test', host: 'browser', keychain: { kind: 'os', detail: '' }, demo: null, lastConnectionId: null, notices: [] }

const bridge: ExplorerBridge = {
  async invoke(channel) {
    const answers: Record<string, unknown> = { 'app:info': INFO, 'connections:list': [] }
    return { ok: true, data: answers[channel] } as never
  },
}

afterEach(() => {
  delete window.explorer
})

async function mount() {
  const pinia = activeWindow(bridge)
  const { default: QueryOptions } = await import('../../src/renderer/components/chain/QueryOptions.vue')
  const { useChainStore } = await import('../../src/renderer/stores/chain')
  const screen = await render(QueryOptions, { global: { plugins: [pinia] } })
  return { screen, chain: useChainStore() }
}

describe('QueryOptions: options the app does not know', () => {
  it('shows a kept option as a name = value row, and lets the user edit, add and remove rows', async () => {
    const { screen, chain } = await mount()
    await chain.loadRequest({
      workspace: 'world', api: '', steps: [{ endpoint: 'search', parameters: { query: 'oslo' } }], responseType: 'results',
      options: { count: 10, extra: { dev_version: 'master' } },
    })
    const panel = screen.getByRole('group', { name: 'Other options' })
    await expect.element(panel.getByRole('textbox', { name: 'Name of dev_version' })).toHaveValue('dev_version')
    await expect.element(panel.getByRole('textbox', { name: 'Value of dev_version' })).toHaveValue('master')

    await panel.getByRole('textbox', { name: 'Value of dev_version' }).fill('main')
    expect(chain.request('results').options.extra).toEqual({ dev_version: 'main' })

    await panel.getByRole('button', { name: 'Add option' }).click()
    const added = panel.getByRole('textbox', { name: 'Name of option 2' })
    await expect.element(added).toHaveFocus()
    await added.fill('trace')
    await panel.getByRole('textbox', { name: 'Value of trace' }).fill('1')
    expect(chain.request('statistics').options.extra).toEqual({ dev_version: 'main', trace: '1' })

    await panel.getByRole('button', { name: 'Remove dev_version' }).click()
    await expect.element(panel.getByRole('textbox', { name: 'Name of dev_version' })).not.toBeInTheDocument()
    expect(chain.request('results').options.extra).toEqual({ trace: '1' })
  })

  it('says when a name is given twice, since only one can be sent', async () => {
    const { screen, chain } = await mount()
    chain.addExtraOption()
    chain.addExtraOption()
    const panel = screen.getByRole('group', { name: 'Other options' })
    await panel.getByRole('textbox', { name: 'Name of option 1' }).fill('dev')
    await panel.getByRole('textbox', { name: 'Name of option 2' }).fill('dev')
    await expect.element(panel.getByText('Option dev is given twice: keep one row (only the last one is sent).').first()).toBeVisible()
    await expect.element(panel.getByRole('textbox', { name: 'Name of dev' }).first()).toHaveAttribute('aria-invalid', 'true')
  })
})

describe('QueryOptions: the numbers typed in', () => {
  const request = (responseType: 'results' | 'resultitem' | 'statistics', options = {}) => ({
    workspace: 'world', api: '', steps: [{ endpoint: 'search', parameters: { query: 'oslo' } }], responseType, options,
  })
  const names = async (screen: Awaited<ReturnType<typeof mount>>['screen']) =>
    screen.getByRole('spinbutton').elements().map((field) => field.getAttribute('aria-label'))

  it('offers the fields of the options each response type takes, in the same order, with their bounds and what empty means', async () => {
    const { screen, chain } = await mount()
    await chain.loadRequest(request('results', { count: 10, level: 2 }))
    await expect.element(screen.getByRole('spinbutton', { name: 'Level' })).toHaveValue(2)
    expect(await names(screen)).toEqual(['Level', 'Cutoff'])
    const cutoff = screen.getByRole('spinbutton', { name: 'Cutoff' })
    await expect.element(cutoff).toHaveAttribute('min', '0')
    await expect.element(cutoff).toHaveAttribute('max', '1')
    await expect.element(cutoff).toHaveAttribute('step', '0.05')
    await expect.element(cutoff).toHaveAttribute('placeholder', 'none')
    await expect.element(cutoff).toHaveAttribute('title', 'Only results with at least this probability')

    await chain.loadRequest(request('resultitem', { rank: 3 }))
    await expect.element(screen.getByRole('spinbutton', { name: 'Rank' })).toHaveValue(3)
    expect(await names(screen)).toEqual(['Rank', 'Column', 'Cutoff'])
    await expect.element(screen.getByRole('spinbutton', { name: 'Column' })).toHaveValue(1)
    await expect.element(screen.getByRole('spinbutton', { name: 'Rank' })).toHaveAttribute('min', '1')
    await expect.element(screen.getByRole('spinbutton', { name: 'Rank' })).not.toHaveAttribute('max')

    await chain.loadRequest(request('statistics'))
    await expect.element(screen.getByRole('spinbutton', { name: 'Rank' })).not.toBeInTheDocument()
    expect(await names(screen)).toEqual(['Cutoff'])
  })

  it('takes a rank only as a whole number from 1, and leaves level and cutoff out while they are empty', async () => {
    const { screen, chain } = await mount()
    await chain.loadRequest(request('resultitem', { rank: 3 }))
    const rank = screen.getByRole('spinbutton', { name: 'Rank' })
    await rank.fill('0')
    expect(chain.request('resultitem').options.rank).toBe(3)
    await rank.fill('5')
    expect(chain.request('resultitem').options.rank).toBe(5)
    await rank.fill('2.5')
    expect(chain.request('resultitem').options.rank).toBe(5)
    // Leaving the field shows the rank kept.
    await screen.getByRole('spinbutton', { name: 'Column' }).click()
    await expect.element(rank).toHaveValue(5)
    await expect.element(rank).toHaveAttribute('aria-invalid', 'false')

    await chain.loadRequest(request('results', { count: 10, level: 2, cutoff: 0.5 }))
    await screen.getByRole('spinbutton', { name: 'Cutoff' }).fill('1.5')
    expect(chain.request('results').options.cutoff).toBe(1.5)
    await screen.getByRole('spinbutton', { name: 'Level' }).fill('')
    expect(chain.request('results').options.level).toBeUndefined()
  })
})
