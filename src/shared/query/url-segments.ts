/**
 * What both halves of the URL codec (url-build.ts, url-parse.ts) share: how a
 * name or value is written as one path segment, the version pattern, and the
 * shape of a read that failed. Pure: no state.
 */

export const FILTER_SUFFIX = ':FILTER'
/** A first segment of digits (and dots) before `<workspace>/api` is the API version. */
export const VERSION_PATTERN = /^\d+(\.\d+)*$/

export interface UrlError {
  /** The piece of the URL that could not be read, as written. */
  segment: string
  message: string
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: UrlError }

/** Flags by char code below 128: what encodeURIComponent leaves as it is (A-Z a-z 0-9 - _ . ! ~ * ' ( )). */
const UNRESERVED = new Uint8Array(128)
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()") UNRESERVED[ch.charCodeAt(0)] = 1

/**
 * Testing first skips the (slower) native call for most names. A loop over a
 * table rather than a regular expression: this runs for every segment of
 * every request, where the regex engine's entry cost shows.
 */
export function encodeSegment(value: string): string {
  return isUnreserved(value, value.length) ? value : encodeURIComponent(value)
}

/** True when the first `length` characters of `text` are all left as they are by encodeURIComponent. */
function isUnreserved(text: string, length: number): boolean {
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 128 || UNRESERVED[code] === 0) return false
  }
  return true
}

export function encodeEndpointName(name: string): string {
  if (!name.endsWith(FILTER_SUFFIX)) return encodeSegment(name)
  const stem = name.length - FILTER_SUFFIX.length
  // A filter endpoint's name is usually written as it is: then it needs no cutting up and joining again.
  return isUnreserved(name, stem) ? name : encodeSegment(name.slice(0, stem)) + FILTER_SUFFIX
}

/** The query URL without its trailing slashes. */
export function trimBase(base: string): string {
  return base.endsWith('/') ? base.replace(/\/+$/, '') : base
}
