import { defineStore } from 'pinia'
import { ref } from 'vue'
import { loadViewPrefs, setViewPrefs, viewPrefs } from '../composables/view-prefs'
import { useCompareStore } from './compare'

/** Where an earlier version kept the view (this origin only): a guess when main keeps none. */
const LEGACY_KEY = 'query-explorer.view'

function legacyView(): string | null {
  try {
    return localStorage.getItem(LEGACY_KEY)
  } catch {
    return null
  }
}

/**
 * Which view of the workbench the main area shows (Results, Compare, Tests,
 * History, …: the list is components/explorer/views.ts). Kept by the main
 * process among the view preferences, so it survives a restart of either
 * host. The Compare view is the compare store's `open`, which decides what
 * Run and Ctrl+Enter run, so the two are kept as one.
 */
export const useWorkbenchStore = defineStore('workbench', () => {
  const compare = useCompareStore()
  const view = ref('results')

  function show(id: string): void {
    view.value = id
    if ((id === 'compare') !== compare.open) compare.toggle()
  }

  function select(id: string): void {
    show(id)
    void setViewPrefs({ view: id })
  }

  /**
   * The view of the last session, once the connections the Compare view
   * starts from are known; `known` says which ids exist. Waits for main's
   * preferences if they have not arrived yet (the window normally asks for
   * them before it mounts).
   */
  function restore(known: readonly string[]): void {
    void loadViewPrefs().then(() => {
      const last = viewPrefs.value.view ?? legacyView()
      if (last && known.includes(last) && last !== view.value) show(last)
    })
  }

  return { view, select, restore }
})
