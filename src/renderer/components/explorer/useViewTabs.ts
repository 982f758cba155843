import { storeToRefs } from 'pinia'
import { nextTick } from 'vue'
import { useWorkbenchStore } from '../../stores/workbench'
import { viewTabId } from './view-tab'
import { VIEWS, VIEW_SHORTCUTS } from './views'

/** The keys a shortcut names for the view at `index` (0-based), both platforms'. */
export const shortcutOf = (index: number) => (index < VIEW_SHORTCUTS ? `Control+${index + 1} Meta+${index + 1}` : undefined)

/**
 * The view tabs (WAI-ARIA tabs, activated as focus moves): one Tab stop, the
 * arrow keys, Home and End move between the views.
 */
export function useViewTabs() {
  const workbench = useWorkbenchStore()
  const { view } = storeToRefs(workbench)
  const badges = Object.fromEntries(VIEWS.map((each) => [each.id, each.badge?.() ?? null]))

  function focusTab(id: string): void {
    void nextTick(() => document.getElementById(viewTabId(id))?.focus())
  }

  function onKeydown(event: KeyboardEvent): void {
    const at = VIEWS.findIndex((each) => each.id === view.value)
    const last = VIEWS.length - 1
    const to =
      event.key === 'ArrowRight' ? (at + 1) % VIEWS.length
      : event.key === 'ArrowLeft' ? (at - 1 + VIEWS.length) % VIEWS.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : null
    if (to === null) return
    event.preventDefault()
    workbench.select(VIEWS[to]!.id)
    focusTab(VIEWS[to]!.id)
  }

  return { views: VIEWS, view, badges, select: (id: string) => workbench.select(id), onKeydown, shortcutOf }
}
