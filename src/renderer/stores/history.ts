import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { HistoryEntry } from '../../shared/ipc/contract'
import { call, errorMessage } from '../api/explorer-client'
import { useQueryStore } from './query'

/** How many runs the History region lists at once; the search reaches all that are kept. */
export const HISTORY_SHOWN = 200

/** The runs the main process recorded, as the History region shows them. */
export const useHistoryStore = defineStore('history', () => {
  const entries = ref<HistoryEntry[]>([])
  const text = ref('')
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** Answers can come back out of order while the user types: only the latest request's answer is shown. */
  let generation = 0

  async function load(): Promise<void> {
    const mine = ++generation
    loading.value = true
    try {
      const found = await call('history:list', { text: text.value, limit: HISTORY_SHOWN })
      if (mine !== generation) return
      entries.value = found
      error.value = null
    } catch (e) {
      if (mine === generation) error.value = errorMessage(e)
    } finally {
      if (mine === generation) loading.value = false
    }
  }

  async function search(next: string): Promise<void> {
    text.value = next
    await load()
  }

  async function clear(): Promise<number> {
    try {
      const { cleared } = await call('history:clear', {})
      entries.value = []
      error.value = null
      return cleared
    } catch (e) {
      error.value = errorMessage(e)
      return 0
    }
  }

  /** Loads the run's request into the editor from the URL it sent; runs nothing. */
  async function openInEditor(entry: HistoryEntry): Promise<{ ok: true } | { ok: false; message: string }> {
    return useQueryStore().replaceFromUrl(entry.url)
  }

  return { entries, text, loading, error, load, search, clear, openInEditor }
})
