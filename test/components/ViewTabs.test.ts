import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The view tabs as WAI-ARIA tabs: one Tab stop, the arrow keys moving the
 * selection and the focus (wrapping at the ends), Home and End the first and
 * last; each tab names its Ctrl/Cmd+digit shortcut.
 */

const fake = bridgeForFile()

async function mount() {
  const pinia = demoWindow(fake)
  const { default: ViewTabs } = await import('../../src/renderer/components/explorer/ViewTabs.vue')
  const screen = await render(ViewTabs, { global: { plugins: [pinia] } })
  return screen.getByRole('tablist', { name: 'Views' })
}

describe('ViewTabs', () => {
  it('is one Tab stop whose arrow keys, Home and End move the selection and the focus, wrapping at the ends', async () => {
    const tabs = await mount()
    const tab = (name: string) => tabs.getByRole('tab', { name, exact: true })
    await expect.element(tab('Results')).toHaveAttribute('aria-selected', 'true')
    expect(tabs.getByRole('tab').elements().map((each) => each.getAttribute('tabindex'))).toEqual(['0', '-1', '-1', '-1', '-1', '-1'])

    ;(tab('Results').element() as HTMLElement).focus()
    await userEvent.keyboard('{ArrowRight}')
    await expect.element(tab('Compare')).toHaveAttribute('aria-selected', 'true')
    await expect.element(tab('Compare')).toHaveFocus()
    await userEvent.keyboard('{End}')
    await expect.element(tab('History')).toHaveFocus()
    await userEvent.keyboard('{ArrowRight}')
    await expect.element(tab('Results')).toHaveFocus()
    await userEvent.keyboard('{ArrowLeft}')
    await expect.element(tab('History')).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{Home}')
    await expect.element(tab('Results')).toHaveAttribute('aria-selected', 'true')
    expect(tabs.getByRole('tab', { selected: true }).elements()).toHaveLength(1)
  })

  it('names each tab’s shortcut, and a click selects it', async () => {
    const tabs = await mount()
    const evaluation = tabs.getByRole('tab', { name: 'Evaluation' })
    await expect.element(evaluation).toHaveAttribute('aria-keyshortcuts', 'Control+4 Meta+4')
    await expect.element(evaluation).toHaveAttribute('title', 'Evaluation (Ctrl+4)')
    await evaluation.click()
    await expect.element(evaluation).toHaveAttribute('aria-selected', 'true')
    await expect.element(tabs.getByRole('tab', { name: 'Results' })).toHaveAttribute('aria-selected', 'false')
  })
})
