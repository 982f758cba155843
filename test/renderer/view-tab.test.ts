import { describe, expect, it } from 'vitest'
import { viewPanelAttrs, viewTabAttrs } from '../../src/renderer/components/explorer/view-tab'

describe('view tab and panel', () => {
  it('ties each tab to its panel both ways: the tab controls the panel, the panel is named by the tab', () => {
    const tab = viewTabAttrs('results', true)
    const panel = viewPanelAttrs('results')
    expect(tab['aria-controls']).toBe(panel.id)
    expect(panel['aria-labelledby']).toBe(tab.id)
    expect(viewTabAttrs('tests', false).id).not.toBe(tab.id)
  })

  it('makes only the selected tab a Tab stop', () => {
    expect(viewTabAttrs('results', true)).toMatchObject({ role: 'tab', 'aria-selected': true, tabindex: 0 })
    expect(viewTabAttrs('compare', false)).toMatchObject({ role: 'tab', 'aria-selected': false, tabindex: -1 })
  })

  it('leaves the panel out of the Tab order while a script can still focus it', () => {
    expect(viewPanelAttrs('compare')).toMatchObject({ role: 'tabpanel', tabindex: -1 })
  })
})
