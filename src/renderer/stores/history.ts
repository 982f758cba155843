import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import { withHistoryEntry } from '../../shared/history/history-list'
import type { HistoryEntry } from '../../shared/ipc/contract'
import { call, errorMessage } from '../api/explorer-client'
import { useChainStore } from './chain'
import { latestCall } from './latest-call'

/** How many runs the History region lists at once; the search reaches all that are kept. */
export const HISTORY_SHOWN = 200

/**
 * The runs the main process recorded, as the History region shows them: read
 * when the view first opens and on each search, then kept up to date from the
 * entries the runs' replies carry, never read back after a run.
 */
export const useHistoryStore = defineStore('history', () => {
  const entries = ref<HistoryEntry[]>([])
  const text = ref('')
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** The last entry a run's reply brought, whatever the search: the chain editor's used endpoints follow it. */
  const lastKept = shallowRef<HistoryEntry | null>(null)
  /** Answers can come back out of order while the user types: only the latest request's answer is shown. */
  const loads = latestCall()
  /** Entries runs brought while a read was on its way: the read may have left them out (it began before they were written). */
  const arrived = new Map<string, HistoryEntry>()
  /** The list was read (for the search as it stands): from then on the runs' replies keep it current. */
  let read = false

  async function load(): Promise<void> {
    const latest = loads.start()
    loading.value = true
    arrived.clear()
    try {
      const found = await call('history:list', { text: text.value, limit: HISTORY_SHOWN })
      if (!latest()) return
      entries.value = [...arrived.values()].reduce((list, entry) => withHistoryEntry(list, entry, text.value, HISTORY_SHOWN), found)
      error.value = null
      read = true
    } catch (e) {
      if (latest()) error.value = errorMessage(e)
    } finally {
      if (latest()) loading.value = false
    }
  }

  /** A run's entry, as its reply brought it: a new run goes first, a run Load more added pages to changes in its place. */
  function keep(entry: HistoryEntry): void {
    lastKept.value = entry
    if (loading.value) arrived.set(entry.id, entry)
    entries.value = withHistoryEntry(entries.value, entry, text.value, HISTORY_SHOWN)
  }

  /** The list as the History view opens: read the first time (or after a failed read); after that it is current already. */
  const show = (): Promise<void> => (read ? Promise.resolve() : load())

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

  return { entries, text, loading, error, lastKept, load, show, keep, search, clear, openInEditor }
})
