import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CODE_LIFETIME_MS } from './launch-codes'

/** Every launch page lives in a folder of its own, named this and six characters from mkdtemp. */
export const LAUNCH_PAGE_PREFIX = 'query-explorer-open-'
const FOLDER_NAME = /^query-explorer-open-[A-Za-z0-9]{6}$/
const PAGE_NAME = 'open.html'

export interface LaunchPage {
  /** The private folder (0700) that holds the page. */
  folder: string
  /** The page itself (0600). */
  page: string
  /** The page's file: address, for Chromium's command line. */
  href: string
  /** Removes the folder, synchronously (safe in an exit handler), once or many times; never throws. True if this call removed it. */
  remove(): boolean
}

/**
 * Writes the page that sends a browser on to `url` (which carries a one-time
 * code) into a private folder under `tmp`, so that Chromium's command line,
 * which every local user can read in `ps`, names only the page.
 */
export function writeLaunchPage(url: string, tmp: string = tmpdir()): LaunchPage {
  const folder = mkdtempSync(join(tmp, LAUNCH_PAGE_PREFIX))
  const page = join(folder, PAGE_NAME)
  const target = url.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)
  let removed = false
  const remove = (): boolean => {
    if (removed) return false
    removed = true
    try {
      rmSync(folder, { recursive: true, force: true })
      return true
    } catch {
      // Nothing here may stop an exit; a folder left behind is cleaned at the next start.
      return false
    }
  }
  try {
    writeFileSync(page, `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${target}"><title>Query Explorer</title>\n`, {
      mode: 0o600,
    })
  } catch (error) {
    remove()
    throw error
  }
  return { folder, page, href: pathToFileURL(page).href, remove }
}

export interface CleanStaleOptions {
  /** The present time (ms since the epoch). */
  now?: number
  /** The user whose folders may go: the current one. */
  uid?: number
  /** A folder untouched for longer than this is stale: its page could open nothing any more. */
  maxAgeMs?: number
}

/**
 * Removes launch-page folders under `tmp` that earlier runs left behind (a
 * process killed outright runs no exit handler). Only folders that are
 * plainly ours and plainly old go: the name mkdtemp gives them, a real
 * folder (not a link), owned by the current user, holding nothing but the
 * page, and untouched for longer than a launch code lives, so a page another
 * instance wrote just now is never disturbed. Returns the folders removed;
 * never throws.
 */
export function cleanStaleLaunchPages(tmp: string = tmpdir(), options: CleanStaleOptions = {}): string[] {
  const now = options.now ?? Date.now()
  const uid = options.uid ?? process.getuid?.()
  const maxAgeMs = options.maxAgeMs ?? CODE_LIFETIME_MS
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(tmp)
  } catch {
    return removed
  }
  for (const name of names) {
    if (!FOLDER_NAME.test(name)) continue
    const folder = join(tmp, name)
    try {
      const stat = lstatSync(folder)
      if (!stat.isDirectory()) continue
      // Where there are no user ids (Windows), the temp folder is the user's own.
      if (uid !== undefined && stat.uid !== uid) continue
      if (now - stat.mtimeMs <= maxAgeMs) continue
      if (readdirSync(folder).some((entry) => entry !== PAGE_NAME)) continue
      rmSync(folder, { recursive: true, force: true })
      removed.push(folder)
    } catch {
      // Gone already, or not ours to read or remove: left as it is.
    }
  }
  return removed
}
