import type { HistoryEntry } from './history-entry'
import { visibleControls } from '../text/visible-controls'

/**
 * The History list's text from a recorded run's server-given parts: the URL
 * (its values came back from a server or a shared file) and the server's
 * error message. Bidi controls show as visible escapes, so one run cannot
 * read as another; searching and "Open in editor" use the entry as recorded.
 */

/** The URL without its origin: the path and query are what tell runs apart (the full URL is the title). */
export function shortUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return visibleControls(`${parsed.pathname}${parsed.search}`)
  } catch {
    return visibleControls(url)
  }
}

/** The whole URL, for the tooltip, shown the same way as shortUrl. */
export function fullUrl(url: string): string {
  return visibleControls(url)
}

/** The status's tooltip: a failed run's message (often the server's own words), else what the column holds. */
export function statusTitle(entry: Pick<HistoryEntry, 'error'>): string {
  return entry.error ? visibleControls(entry.error.message) : 'HTTP status'
}
