import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { page, userEvent } from 'vitest/browser'
import { defineComponent, h } from 'vue'
import ColumnChooser from '../../src/renderer/components/results/ColumnChooser.vue'

/**
 * The Columns popover: its button opens it with a box per attribute (ticked
 * for those shown), a tick or untick is sent as it is made, Escape closes it
 * with the focus back on the button, a click elsewhere closes it, and in a
 * short window it opens above its button, all of it inside the window.
 */

const AVAILABLE = [{ key: '1.name', label: 'name' }, { key: '1.country', label: 'country' }, { key: '1.population', label: 'population' }]

afterEach(() => {
  document.body.replaceChildren()
})

async function mount(placeAt: 'top' | 'bottom' = 'top', height = 600) {
  await page.viewport(800, height)
  const toggles: [string, boolean][] = []
  const resets: number[] = []
  const Host = defineComponent(() => () => [
    h('button', { type: 'button' }, 'Elsewhere'),
    h('div', { style: `position: fixed; right: 10px; ${placeAt}: 10px` }, [
      h(ColumnChooser, { available: AVAILABLE, shown: new Set(['1.name']), onToggle: (key: string, on: boolean) => toggles.push([key, on]), onReset: () => resets.push(1) }),
    ]),
  ])
  const screen = await render(Host)
  const button = screen.getByRole('button', { name: 'Columns' })
  return { screen, button, toggles, resets, chooser: screen.getByRole('group', { name: 'Attributes shown as columns' }) }
}

describe('ColumnChooser', () => {
  it('opens with the attributes shown ticked, sends each tick, and closes on Escape with the focus back on its button', async () => {
    const { button, chooser, toggles, resets } = await mount()
    await expect.element(button).toHaveAttribute('aria-expanded', 'false')
    await button.click()
    await expect.element(button).toHaveAttribute('aria-expanded', 'true')
    await expect.element(chooser.getByRole('checkbox', { name: 'name', exact: true })).toBeChecked()
    await expect.element(chooser.getByRole('checkbox', { name: 'country', exact: true })).not.toBeChecked()

    await chooser.getByRole('checkbox', { name: 'country', exact: true }).click()
    await chooser.getByRole('checkbox', { name: 'name', exact: true }).click()
    expect(toggles).toEqual([['1.country', true], ['1.name', false]])
    await chooser.getByRole('button', { name: 'Back to the first six' }).click()
    expect(resets).toEqual([1])

    await userEvent.keyboard('{Escape}')
    await expect.element(button).toHaveAttribute('aria-expanded', 'false')
    // Hidden: out of what a screen reader is given.
    expect(chooser.elements()).toHaveLength(0)
    await expect.element(button).toHaveFocus()
  })

  it('closes on a click elsewhere', async () => {
    const { button, chooser, screen } = await mount()
    await button.click()
    await expect.element(chooser).toBeVisible()
    await screen.getByRole('button', { name: 'Elsewhere' }).click()
    await expect.element(button).toHaveAttribute('aria-expanded', 'false')
    expect(chooser.elements()).toHaveLength(0)
  })

  it('opens above its button near the foot of a short window, inside the window', async () => {
    const { button, chooser } = await mount('bottom', 300)
    await button.click()
    await expect.element(chooser).toBeVisible()
    const box = chooser.element().getBoundingClientRect()
    const anchor = button.element().getBoundingClientRect()
    expect(box.bottom).toBeLessThanOrEqual(anchor.top)
    expect(box.top).toBeGreaterThanOrEqual(0)
    expect(box.left).toBeGreaterThanOrEqual(0)
    expect(box.right).toBeLessThanOrEqual(800)
  })
})
