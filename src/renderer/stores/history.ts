import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { HistoryEntry } from '../../shared/ipc/contract'
import { call, errorMessage } from '../api/explorer-client'
import { useChainStore } from './chain'
import { latestCall } from './latest-call'

/** How many runs the History region lists at once; the search reaches all that are kept. */
export const HISTORY_SHOWN = 200

/** The runs the main process recorded, as the History region shows them. */
export const useHistoryStore = defineStore('history', () => {
  const entries = ref<HistoryEntry[]>([])
  const text = ref('')
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** Answers can come back out of order while the user types: only the latest request's answer is shown. */
  const loads = latestCall()

  async function load(): Promise<void> {
    const latest = loads.start()
    loading.value = true
    try {
      const found = await call('history:list', { text: text.value, limit: HISTORY_SHOWN })
      if (!latest()) return
      entries.value = found
      error.value = null
    } catch (e) {
      if (latest()) error.value = errorMessage(e)
    } finally {
      if (latest()) loading.value = false
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
    return useChainStore().replaceFromUrl(entry.url)
  }

  return { entries, text, loading, error, load, search, clear, openInEditor }
})
