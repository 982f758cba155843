import type { HistoryEntry } from './history-entry'

/** Does this entry's connection, API, config, URL or status contain the text (any case)? */
export function matchesHistoryText(entry: HistoryEntry, text: string): boolean {
  const needle = text.trim().toLowerCase()
  if (!needle) return true
  const status = entry.status !== null ? String(entry.status) : `${entry.error?.code ?? ''} ${entry.error?.message ?? ''}`
  return [entry.connectionName, entry.api, entry.config, entry.url, status].some((field) => field.toLowerCase().includes(needle))
}

/**
 * The list shown (newest first, at most `limit`, those matching `text`) with
 * an entry a run's reply brought: a run Load more added pages to replaces its
 * entry in its place; a new run goes first. The same list `history:list`
 * would give, without asking main for what it just wrote.
 */
export function withHistoryEntry(shown: readonly HistoryEntry[], entry: HistoryEntry, text: string, limit: number): HistoryEntry[] {
  const at = shown.findIndex((each) => each.id === entry.id)
  if (!matchesHistoryText(entry, text)) return at < 0 ? [...shown] : shown.filter((each) => each.id !== entry.id)
  if (at >= 0) return shown.map((each) => (each.id === entry.id ? entry : each))
  return [entry, ...shown].slice(0, limit)
}
