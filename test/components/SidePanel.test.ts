import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { page, userEvent } from 'vitest/browser'
import { defineComponent, h } from 'vue'
import SidePanel from '../../src/renderer/components/explorer/SidePanel.vue'
import { gridCovered } from '../../src/renderer/components/results/grid-cover'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * A side panel's fold: its toggle opens and folds it; in a narrow window the
 * open panel lies over the grid (the grid is told), with a close button
 * that takes the focus, and Escape closes it with the focus back on the
 * toggle; in a wide window it sits beside, with no close button, and Escape
 * is left to others (a running query's cancel). The fold is remembered apart
 * for each kind of window.
 */

const fake = bridgeForFile()

async function mount(width: number) {
  await page.viewport(width, 700)
  demoWindow(fake)
  const escapes: boolean[] = []
  const Host = defineComponent(() => () =>
    h('div', { onKeydown: (event: KeyboardEvent) => event.key === 'Escape' && escapes.push(event.defaultPrevented) }, [
      h(SidePanel, { label: 'Insights', toggleLabel: 'Statistics', bodyId: 'insights-body', openTitle: 'Fold', closedTitle: 'Open' }, () => h('p', 'Panel body')),
    ]),
  )
  const screen = await render(Host)
  const toggle = screen.getByRole('button', { name: 'Statistics' })
  const isOpen = () => toggle.element().getAttribute('aria-expanded') === 'true'
  return { screen, toggle, isOpen, escapes }
}

describe('SidePanel', () => {
  it('in a narrow window opens over the grid with the focus on Close, and Escape folds it back to its toggle', async () => {
    const { screen, toggle, isOpen } = await mount(1000)
    if (isOpen()) await toggle.click()
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(gridCovered.value).toBe(false)

    await toggle.click()
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect.element(screen.getByText('Panel body')).toBeVisible()
    await expect.element(screen.getByRole('button', { name: 'Close side panel' })).toHaveFocus()
    expect(gridCovered.value).toBe(true)

    await userEvent.keyboard('{Escape}')
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect.element(toggle).toHaveFocus()
    expect(gridCovered.value).toBe(false)
    expect(isOpen()).toBe(false)
  })

  it('in a wide window sits beside with no Close, leaves Escape to others, and keeps its own fold', async () => {
    const narrow = await mount(1000)
    const foldedNarrow = !narrow.isOpen()
    narrow.screen.unmount()

    const { screen, toggle, isOpen, escapes } = await mount(1400)
    if (!isOpen()) await toggle.click()
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByRole('button', { name: 'Close side panel' }).elements()).toHaveLength(0)
    expect(gridCovered.value).toBe(false)
    ;(toggle.element() as HTMLElement).focus()
    await userEvent.keyboard('{Escape}')
    expect(escapes).toEqual([false])
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'true')

    // Folding it here leaves the narrow window's fold as it was.
    await toggle.click()
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'false')
    screen.unmount()
    const back = await mount(1000)
    expect(!back.isOpen()).toBe(foldedNarrow)
  })
})
