import { storeToRefs } from 'pinia'
import { onMounted } from 'vue'
import type { HistoryEntry } from '../../../shared/ipc/contract'
import { fullUrl, shortUrl, statusTitle } from '../../../shared/history/entry-text'
import { useHistoryStore } from '../../stores/history'
import { useToastsStore } from '../../stores/toasts'

const pad = (n: number) => String(n).padStart(2, '0')

/** Today's runs by time of day; older ones with their date too. */
export function formatWhen(iso: string, now = new Date()): string {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return iso
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`
  return at.toDateString() === now.toDateString() ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`
}

export function statusText(entry: HistoryEntry): string {
  if (entry.error) return entry.status !== null ? `${entry.status} ${entry.error.code}` : entry.error.code
  return entry.status !== null ? String(entry.status) : '—'
}

/** The total, else the items in the answer; a run Load more added pages to says how many pages and rows it covers. */
export function totalText(entry: HistoryEntry): string {
  const covered = entry.pages > 1 && entry.itemCount !== null ? `${entry.pages.toLocaleString('en')} pages, ${entry.itemCount.toLocaleString('en')} rows` : null
  if (entry.total !== null) return covered ? `${entry.total.toLocaleString('en')} · ${covered}` : entry.total.toLocaleString('en')
  if (covered) return covered
  return entry.itemCount !== null ? `${entry.itemCount.toLocaleString('en')} items` : '—'
}

/**
 * The History view: the list is read the first time it is shown; after that
 * each run shows up from the entry its reply brought the History store,
 * nothing read again.
 */
export function useHistoryPanel() {
  const history = useHistoryStore()
  const toasts = useToastsStore()
  const { entries, text, loading, error } = storeToRefs(history)
  onMounted(() => void history.show())

  function onSearch(event: Event): void {
    void history.search((event.target as HTMLInputElement).value)
  }

  async function openInEditor(entry: HistoryEntry): Promise<void> {
    const result = await history.openInEditor(entry)
    if (result.ok) toasts.show(`Loaded the query of ${formatWhen(entry.at)} into the editor. Press Run to send it.`)
    else toasts.show(`That query cannot be opened: ${result.message}`, { tone: 'danger' })
  }

  async function clear(): Promise<void> {
    const cleared = await history.clear()
    if (!error.value) toasts.show(cleared === 1 ? 'Cleared 1 run from the history.' : `Cleared ${cleared.toLocaleString('en')} runs from the history.`)
  }

  return { entries, text, loading, error, onSearch, openInEditor, clear, formatWhen, statusText, statusTitle, totalText, shortUrl, fullUrl }
}
