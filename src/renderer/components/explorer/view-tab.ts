/** The ids that tie a view's tab to its panel (WAI-ARIA tabs): the tab controls the panel, the panel is named by the tab. */
export const viewTabId = (id: string) => `view-tab-${id}`
export const viewPanelId = (id: string) => `view-panel-${id}`

/** A view's tab, for `v-bind`: selected or not, the list's one Tab stop while selected (the arrow keys reach the others). */
export function viewTabAttrs(id: string, selected: boolean) {
  return { id: viewTabId(id), role: 'tab', 'aria-selected': selected, 'aria-controls': viewPanelId(id), tabindex: selected ? 0 : -1 }
}

/** A view's panel, for `v-bind`: named by its tab, and focusable from a script (Skip to results) but no Tab stop. */
export function viewPanelAttrs(id: string) {
  return { id: viewPanelId(id), role: 'tabpanel', 'aria-labelledby': viewTabId(id), tabindex: -1 }
}
