import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import { viewPanelAttrs, viewPanelId, viewTabAttrs, viewTabId } from '../../src/renderer/components/explorer/view-tab'
import { answerAsDemo, fakeBridge } from '../renderer/fake-bridge'

/**
 * The main area's views as the tabs list them: in tab order, each reached by
 * Ctrl/Cmd+its place, only Results kept while another view shows, a badge on
 * Tests alone. A view other than Results is read when first shown, and once
 * read it shows at once, as a view of the first bundle does. (In Chromium:
 * the views' modules draw, and read the theme, as they load.)
 */

const fake = fakeBridge()
answerAsDemo(fake)
fake.answers['history:list'] = []
// The views' modules reach the window's client, which keeps the bridge it finds as it loads: this one.
window.explorer = fake.bridge
const { VIEWS, VIEW_SHORTCUTS } = await import('../../src/renderer/components/explorer/views')

afterEach(() => {
  document.body.replaceChildren()
})

describe('views', () => {
  it('lists the views in tab order, under ids that stay the same across reloads, each with its own tab and panel', () => {
    expect(VIEWS.map((view) => [view.id, view.label])).toEqual([
      ['results', 'Results'],
      ['compare', 'Compare'],
      ['tests', 'Tests'],
      ['evaluation', 'Evaluation'],
      ['experiments', 'Experiments'],
      ['history', 'History'],
    ])
    const ids = VIEWS.flatMap((view) => [viewTabId(view.id), viewPanelId(view.id)])
    expect(new Set(ids).size).toBe(VIEWS.length * 2)
    for (const view of VIEWS) {
      expect(viewTabAttrs(view.id, false).id).toBe(viewTabId(view.id))
      expect(viewPanelAttrs(view.id).id).toBe(viewPanelId(view.id))
    }
  })

  it('reaches every view by Ctrl/Cmd+digit, keeps only Results while another shows, and badges only Tests', () => {
    expect(VIEW_SHORTCUTS).toBe(6)
    expect(VIEWS.length).toBeLessThanOrEqual(VIEW_SHORTCUTS)
    expect(VIEWS.filter((view) => view.keep).map((view) => view.id)).toEqual(['results'])
    expect(VIEWS.filter((view) => view.badge).map((view) => view.id)).toEqual(['tests'])
  })

  it('reads a view when first shown, and once read shows it at once', async () => {
    const history = VIEWS.find((view) => view.id === 'history')!.component
    const first = await render(history, { global: { plugins: [createPinia()] } })
    await expect.element(first.getByRole('region', { name: 'History' })).toBeVisible()
    await expect.element(first.getByText('No runs yet: each query you run is listed here.')).toBeVisible()
    first.unmount()

    // Read already: the panel is there on the first render, with no turn to wait.
    const again = await render(history, { global: { plugins: [createPinia()] } })
    expect(again.container.querySelector('section[aria-label="History"]')).not.toBeNull()
  })
})
