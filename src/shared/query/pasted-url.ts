import type { QueryRequest } from './model'
import { parseUrl, trimBase, type Parsed } from './url'

/** What a pasted URL is read against: the connection it will run on. */
export interface PasteTarget {
  name: string
  queryUrl: string
  workspace: string
}

export interface PastedUrl {
  request: QueryRequest
  /** The query URL the pasted URL was made against. */
  base: string
  /** Says where the URL came from when that is not the target itself (another base or workspace); null otherwise. */
  note: string | null
}

/**
 * Reads a request URL made against any query URL (a colleague's, the demo on
 * another port). A URL under the target's own query URL is read against it,
 * without guessing where its path ends; any other is read from the part
 * after `/<workspace>/api/<api>/`. Either way the request runs on the target:
 * only the chain and options are taken from the URL.
 */
export function readPastedUrl(text: string, target: PasteTarget): Parsed<PastedUrl> {
  const own = parseUrl(text, { base: target.queryUrl })
  const parsed = own.ok ? own : parseUrl(text)
  if (!parsed.ok) {
    // Under the own query URL, the exact reading's complaint is the one that names the real fault.
    const error = !own.ok && startsWith(text.trim(), trimBase(target.queryUrl)) ? own.error : parsed.error
    return { ok: false, error }
  }
  const { base, request } = parsed.value
  const notes: string[] = []
  if (!own.ok && base.toLowerCase() !== trimBase(target.queryUrl).toLowerCase()) {
    notes.push(`Read from ${base} — it runs on the current connection, ${target.name}.`)
  }
  if (request.workspace !== target.workspace) {
    notes.push(`It was written for workspace "${request.workspace}"; it runs in "${target.workspace}", the workspace of ${target.name}.`)
  }
  return { ok: true, value: { base, request, note: notes.length > 0 ? notes.join(' ') : null } }
}

function startsWith(text: string, base: string): boolean {
  if (!text.toLowerCase().startsWith(base.toLowerCase())) return false
  const rest = text.slice(base.length)
  return rest === '' || rest.startsWith('/') || rest.startsWith('?')
}
