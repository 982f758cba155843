import { decodeSpan, nextIndex } from './url-parse-spans'

/**
 * The path reader of url-parse.ts: the head of a path, up to `/api/<api>`,
 * as places in the URL's text, its segments cut out or decoded only when one
 * is asked for (where the query URL's own path ends is found by trying).
 */

/**
 * The segments of a path (`text` from `from` to `to`) as places in its text,
 * found as far as they are asked for: what `path.split('/')` gives, without
 * the empty one before a leading slash, and none at all for `` or `/`.
 * Segment `k` ends at `ends[k]` and starts after the `/` before it (segment 0
 * at `first`). Only the head of the path (up to `/api/<api>`) is read this
 * way; parseChain reads the rest where it stands.
 */
export interface Path {
  text: string
  from: number
  to: number
  first: number
  ends: number[]
  /** True once the last segment is in `ends`. */
  done: boolean
}

export function pathIn(text: string, from: number, to: number): Path {
  const lead = from < to && text.charCodeAt(from) === 47 ? 1 : 0
  return { text, from, to, first: from + lead, ends: [], done: to - from === lead }
}

/** True when the path has a segment `k`, which is then in `ends`. */
export function has(path: Path, k: number): boolean {
  const ends = path.ends
  while (ends.length <= k) {
    if (path.done) return false
    const end = nextIndex(path.text, '/', ends.length === 0 ? path.first : ends[ends.length - 1]! + 1, path.to)
    ends.push(end)
    path.done = end === path.to
  }
  return true
}

export function segmentCount(path: Path): number {
  while (has(path, path.ends.length));
  return path.ends.length
}

/** Where segment `k` starts; it must be in `ends`, as must every `k` below. */
function startOf(path: Path, k: number): number {
  return k === 0 ? path.first : path.ends[k - 1]! + 1
}

/** Segment `k` as written. */
export function raw(path: Path, k: number): string {
  return path.text.slice(startOf(path, k), path.ends[k])
}

export function decoded(path: Path, k: number): string | null {
  const start = startOf(path, k)
  return decodeSpan(path.text, start, path.ends[k]!, nextIndex(path.text, '%', start, path.ends[k]!))
}

/** Cut out and compared: for these short words that costs less than startsWith with a position. */
export function isWord(path: Path, k: number, word: string): boolean {
  const start = startOf(path, k)
  return path.ends[k]! - start === word.length && path.text.slice(start, path.ends[k]) === word
}

export function isEmpty(path: Path, k: number): boolean {
  return path.ends[k] === startOf(path, k)
}
