import { decodeRange } from './url-decode'
import type { Parsed, UrlError } from './url-segments'

/**
 * The URL reader's (url-parse.ts) smallest parts: where the next separator
 * is, a range of the URL's text decoded where it stands, and the errors it
 * names a segment in. Shared by the path, chain and option readers.
 */

export function fail<T>(segment: string, message: string): Parsed<T> {
  return { ok: false, error: { segment, message } }
}

export function badEncoding(segment: string, what: string): UrlError {
  return { segment, message: `${what} "${segment}" is not valid percent-encoding` }
}

/** The index of `char` in `text` from `from` on, or `to` when there is none before `to`. */
export function nextIndex(text: string, char: string, from: number, to: number): number {
  const i = text.indexOf(char, from)
  return i < 0 || i > to ? to : i
}

/**
 * `text.slice(start, end)` decoded, or null when it is not valid
 * percent-encoding; `percent` is where the first `%` at or after `start` is
 * (`end` or more when there is none before `end`). Most names and values have
 * none, and are then their own decoding.
 */
export function decodeSpan(text: string, start: number, end: number, percent: number): string | null {
  return percent < end ? decodeRange(text, start, end, percent) : text.slice(start, end)
}
