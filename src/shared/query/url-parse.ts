import type { QueryRequest } from './model'
import { parseChain, type ChainFailure } from './url-parse-chain'
import { parseOptions } from './url-parse-options'
import { decoded, has, isEmpty, isWord, pathIn, raw, segmentCount, type Path } from './url-parse-path'
import { badEncoding, fail, nextIndex } from './url-parse-spans'
import { VERSION_PATTERN, trimBase, type Parsed, type UrlError } from './url-segments'

/**
 * Reading Query API URLs: the exact inverse of `buildUrl` (url-build.ts) on
 * normal chains (see normalize.ts), and also what people paste; what it cannot
 * read it rejects whole, naming the segment, so no caller ever holds a
 * half-parsed request.
 *
 * The chain editor reads its URL back on every keystroke, so this reads the
 * path where it stands in the URL rather than splitting it into strings: only
 * names and values become strings, and only segments holding a `%` are
 * decoded. test/shared/url-parse-reference.test.ts holds it to the reading of
 * the plain split-and-decode version it replaced.
 *
 * In parts, each read where it stands: url-parse-path.ts finds the head of
 * the path (up to `/api/<api>`), url-parse-chain.ts the chain after it,
 * url-parse-options.ts the query string (its numbers by url-parse-decimal.ts),
 * and url-parse-spans.ts finds and decodes the ranges they cut out.
 */

export interface ParsedTarget {
  request: QueryRequest
  /** Raw path segments before the version/workspace: the query URL's own path. */
  prefix: string[]
  /** False when the path ends without a response type (then `results` is assumed). */
  responseTypeGiven: boolean
}

export interface ParsedUrl {
  /** The query URL the request was made against (origin plus its own path, no trailing slash). */
  base: string
  request: QueryRequest
}

export interface TargetOptions {
  /**
   * How many leading path segments belong to the query URL itself, when the
   * caller knows it (a connection's query URL): then no other reading is tried.
   */
  prefixSegments?: number
}

/** A reading of the path: `prefixLength` segments are the query URL's own. */
interface Target {
  request: QueryRequest
  prefixLength: number
  responseTypeGiven: boolean
}

function readAt(path: Path, j: number, hasVersion: boolean, search: string, from: number, to: number): ChainFailure | Parsed<Target> {
  const chain = parseChain(path.text, path.ends[j + 1]! + 1, path.to)
  if (!chain.ok) return chain
  const workspace = decoded(path, j - 1)
  if (workspace === null) return { ok: false, error: badEncoding(raw(path, j - 1), 'workspace') }
  const api = decoded(path, j + 1)
  if (api === null) return { ok: false, error: badEncoding(raw(path, j + 1), 'API name') }
  const options = parseOptions(search, from, to)
  if (!options.ok) return options
  const { steps, responseType, facet } = chain
  // Literals rather than conditional spreads: spreading costs more than the rest of the read.
  let request: QueryRequest = hasVersion
    ? { version: raw(path, j - 2), workspace, api, steps, responseType, options: options.value }
    : { workspace, api, steps, responseType, options: options.value }
  if (facet !== undefined) {
    // The facet after the response type, where a model file has it.
    const { options: given, ...head } = request
    request = { ...head, facet, options: given }
  }
  return { ok: true, value: { request, prefixLength: hasVersion ? j - 2 : j - 1, responseTypeGiven: chain.given } }
}

/** parseTarget on a scanned path and the query string `search` from `from` to `to`. */
function readTarget(path: Path, search: string, from: number, to: number, fixed: number | undefined): Parsed<Target> {
  let best: { error: UrlError; at: number } | null = null
  for (let j = fixed === undefined ? 1 : fixed + 1; has(path, j + 1); j++) {
    if (fixed !== undefined && j > fixed + 2) break
    if (!isWord(path, j, 'api')) continue
    const hasVersion = j >= 2 && VERSION_PATTERN.test(raw(path, j - 2)) && (fixed === undefined || j - 2 === fixed)
    if (fixed !== undefined && !hasVersion && j !== fixed + 1) continue
    const read = readAt(path, j, hasVersion, search, from, to)
    if ('at' in read) {
      if (!best || read.at > best.at) best = read
      continue
    }
    if (read.ok && !hasVersion && isWord(path, j + 1, 'api') && VERSION_PATTERN.test(raw(path, j - 1)) && has(path, j + 2)) {
      const versioned = readAt(path, j + 1, true, search, from, to)
      if (!('at' in versioned) && versioned.ok) return versioned
    }
    return read
  }
  if (best) return { ok: false, error: best.error }
  const n = segmentCount(path)
  if (n >= 2 && isWord(path, n - 1, 'api')) return fail('api', 'the API name is missing after "/api"')
  if (n >= 1 && isWord(path, 0, 'api')) return fail('api', 'the workspace name is missing before "/api"')
  const written = path.text.slice(path.from, path.to)
  return fail(written === '' ? '/' : written, `no "/<workspace>/api/<api>" found in the path "${written || '/'}"`)
}

/**
 * Reads `<prefix…>/[<version>/]<workspace>/api/<api>/<chain>[?options]`.
 *
 * Where the query URL's own path ends is not written in the URL, and names
 * may be `api`, `e` or digits, so a path can have several readings. The one
 * taken has the shortest prefix (the leftmost `api` after which the rest
 * reads as a chain), and, per the contract's rule that a first segment of
 * digits followed by `<workspace>/api` is a version, a reading with a version
 * wins over one that takes the digits as the workspace and `api` as the API
 * name. Callers that know the query URL pass `prefixSegments` (parseUrl's
 * `base` option) and get the one reading that fits it. When no reading
 * works, the error reported is the one that got furthest into the path: the
 * one a person most likely means.
 */
export function parseTarget(path: string, search = '', options: TargetOptions = {}): Parsed<ParsedTarget> {
  const scanned = pathIn(path, 0, path.length)
  const read = readTarget(scanned, search, 0, search.length, options.prefixSegments)
  if (!read.ok) return read
  const prefix: string[] = []
  for (let k = 0; k < read.value.prefixLength; k++) prefix.push(raw(scanned, k))
  return { ok: true, value: { request: read.value.request, prefix, responseTypeGiven: read.value.responseTypeGiven } }
}

/**
 * Where `<scheme>://<host>` ends (at the first `/`, `?` or `#` after it), or
 * -1 when the text does not start with a scheme and `://`: what
 * `^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*)` matches, without the regular
 * expression engine's entry cost.
 */
function originEnd(text: string): number {
  const n = text.length
  const first = text.charCodeAt(0) | 32
  if (!(first >= 97 && first <= 122)) return -1
  let i = 1
  for (; i < n; i++) {
    const c = text.charCodeAt(i)
    const lower = c | 32
    if (!((lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) break
  }
  if (text.charCodeAt(i) !== 58 || text.charCodeAt(i + 1) !== 47 || text.charCodeAt(i + 2) !== 47) return -1
  for (i += 3; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 47 || c === 63 || c === 35) break
  }
  return i
}

/** A line terminator from `from` on: a fragment holding one is not a URL (a regular expression's `.` stops there). */
function hasLineTerminator(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return true
  }
  return false
}

/** `http` or `https`, in any case, as the scheme ending at `end`. */
function isHttpScheme(text: string, end: number): boolean {
  return (
    (end === 4 || (end === 5 && (text.charCodeAt(4) | 32) === 115)) &&
    (text.charCodeAt(0) | 32) === 104 &&
    (text.charCodeAt(1) | 32) === 116 &&
    (text.charCodeAt(2) | 32) === 116 &&
    (text.charCodeAt(3) | 32) === 112
  )
}

export interface ParseUrlOptions {
  /**
   * The query URL the request was made against, when known (a connection's).
   * The URL must start with it, and the rest is read without guessing where
   * the query URL's own path ends.
   */
  base?: string
}

/** Reads a pasted Query API URL into its base and request; never half-parses. */
export function parseUrl(input: string, options: ParseUrlOptions = {}): Parsed<ParsedUrl> {
  const text = input.trim()
  const pathStart = originEnd(text)
  const hash = pathStart < 0 ? -1 : text.indexOf('#', pathStart)
  if (pathStart < 0 || (hash >= 0 && hasLineTerminator(text, hash + 1))) {
    return fail(text, 'not an absolute http(s) URL (expected http://host/…)')
  }
  const searchEnd = hash < 0 ? text.length : hash
  const pathEnd = nextIndex(text, '?', pathStart, searchEnd)
  // The scheme holds no colon, so the first one ends it.
  const schemeEnd = text.indexOf(':')
  if (!isHttpScheme(text, schemeEnd)) return fail(text.slice(0, pathStart), 'only http and https URLs can be queried')
  if (pathStart === schemeEnd + 3) return fail(text.slice(0, pathStart), 'the URL has no host')
  let fixed: number | undefined
  if (options.base !== undefined) {
    const base = trimBase(options.base)
    const rest = text.slice(base.length)
    if (!text.toLowerCase().startsWith(base.toLowerCase()) || !(rest === '' || rest.startsWith('/') || rest.startsWith('?'))) {
      return fail(text.slice(0, pathEnd), `the URL does not start with the query URL ${base}`)
    }
    const own = base.slice(pathStart)
    fixed = segmentCount(pathIn(own, 0, own.length))
  }
  const path = pathIn(text, pathStart, pathEnd)
  const target = readTarget(path, text, pathEnd, searchEnd, fixed)
  if (!target.ok) return target
  // The origin and the prefix segments, each after its slash; a prefix of one empty segment joins to nothing, so it adds nothing.
  const m = target.value.prefixLength
  const base = m === 0 || (m === 1 && isEmpty(path, 0)) ? text.slice(0, pathStart) : text.slice(0, path.ends[m - 1])
  return { ok: true, value: { base, request: target.value.request } }
}
