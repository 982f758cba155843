import { defineStore } from 'pinia'
import { ref } from 'vue'
import { useCompareStore } from './compare'

const STORAGE_KEY = 'query-explorer.view'

function remembered(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY)
  } catch {
    return null
  }
}

/**
 * Which view of the workbench the main area shows (Results, Compare, Tests,
 * History, …: the list is components/explorer/views.ts). Remembered across
 * reloads. The Compare view is the compare store's `open`, which decides what
 * Run and Ctrl+Enter run, so the two are kept as one.
 */
export const useWorkbenchStore = defineStore('workbench', () => {
  const compare = useCompareStore()
  const view = ref('results')

  function select(id: string): void {
    view.value = id
    if ((id === 'compare') !== compare.open) compare.toggle()
    try {
      localStorage.setItem(STORAGE_KEY, id)
    } catch {
      // Not remembered, but shown for this run.
    }
  }

  /** The view of the last session, once the connections the Compare view starts from are known; `known` says which ids exist. */
  function restore(known: readonly string[]): void {
    const last = remembered()
    if (last && known.includes(last) && last !== view.value) select(last)
  }

  return { view, select, restore }
})
