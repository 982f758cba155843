import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import axe from 'axe-core'
import { render } from 'vitest-browser-vue'
import StepCard from '../../src/renderer/components/chain/StepCard.vue'
import type { EndpointDescription } from '../../src/shared/api-description'

/**
 * A switched-off step stays readable: its text keeps at least 4.5:1 against
 * what is behind it (axe's colour-contrast rule) in both themes, as does an
 * endpoint step and a context step that is on.
 */

const ENDPOINTS: EndpointDescription[] = [
  { name: 'population', kind: 'filter', stackable: true, output: ['OBJ'], description: 'Keeps cities by population.',
    parameters: [{ name: 'min', type: 'INTEGER', required: false }, { name: 'max', type: 'INTEGER', required: true }] },
]

afterEach(() => {
  delete document.documentElement.dataset.theme
})

/** axe's contrast findings in `element`, one readable line each. */
async function contrastProblems(element: Element): Promise<string[]> {
  const { violations } = await axe.run(element, { runOnly: ['color-contrast'] })
  return violations.flatMap((violation) => violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`))
}

describe('a switched-off step', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const enabled of [false, true]) {
      it(`keeps its text at 4.5:1 or more (${theme} theme, step ${enabled ? 'on' : 'off'})`, async () => {
        document.documentElement.dataset.theme = theme
        // In the chain column, on the window's background, as in the app.
        const column = document.body.appendChild(document.createElement('div'))
        column.style.cssText = 'width: 320px; padding: 12px; background: var(--bg); color: var(--text)'
        const screen = await render(StepCard, {
          props: { index: 1, total: 3, endpoints: ENDPOINTS, problems: [], entry: { id: 'a', enabled, step: { endpoint: 'population', parameters: { min: '5000', max: '' } } } },
          container: column,
        })
        const card = screen.getByRole('group', { name: 'Step 2' })
        await expect.element(card).toBeVisible()
        await expect.element(card.getByRole('switch')).toHaveProperty('checked', enabled)
        expect(await contrastProblems(column)).toEqual([])
        screen.unmount()
        column.remove()
      })
    }
  }
})
