import {
  OPTION_ORDER,
  RESPONSE_TYPES,
  type EndpointStep,
  type OptionName,
  type QueryOptions,
  type QueryRequest,
  type ResponseType,
  type Step,
} from './model'
import { getEntry, setEntry } from './records'
import { RESPONSE_TYPE_LABELS } from './response-types'
import { decodeRange, decodeText } from './url-decode'
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

function fail<T>(segment: string, message: string): Parsed<T> {
  return { ok: false, error: { segment, message } }
}

function badEncoding(segment: string, what: string): UrlError {
  return { segment, message: `${what} "${segment}" is not valid percent-encoding` }
}

/** A response type written as one segment (all but `options`), percent-encoded or not. */
function singleSegmentType(segment: string): ResponseType | null {
  const text = decodeText(segment)
  return text !== null && text !== 'options' && (RESPONSE_TYPES as readonly string[]).includes(text) ? (text as ResponseType) : null
}

/** The index of `char` in `text` from `from` on, or `to` when there is none before `to`. */
function nextIndex(text: string, char: string, from: number, to: number): number {
  const i = text.indexOf(char, from)
  return i < 0 || i > to ? to : i
}

/**
 * `text.slice(start, end)` decoded, or null when it is not valid
 * percent-encoding; `percent` is where the first `%` at or after `start` is
 * (`end` or more when there is none before `end`). Most names and values have
 * none, and are then their own decoding.
 */
function decodeSpan(text: string, start: number, end: number, percent: number): string | null {
  return percent < end ? decodeRange(text, start, end, percent) : text.slice(start, end)
}

/**
 * The segments of a path (`text` from `from` to `to`) as places in its text,
 * found as far as they are asked for: what `path.split('/')` gives, without
 * the empty one before a leading slash, and none at all for `` or `/`.
 * Segment `k` ends at `ends[k]` and starts after the `/` before it (segment 0
 * at `first`). Only the head of the path (up to `/api/<api>`) is read this
 * way; parseChain reads the rest where it stands.
 */
interface Path {
  text: string
  from: number
  to: number
  first: number
  ends: number[]
  /** True once the last segment is in `ends`. */
  done: boolean
}

function pathIn(text: string, from: number, to: number): Path {
  const lead = from < to && text.charCodeAt(from) === 47 ? 1 : 0
  return { text, from, to, first: from + lead, ends: [], done: to - from === lead }
}

/** True when the path has a segment `k`, which is then in `ends`. */
function has(path: Path, k: number): boolean {
  const ends = path.ends
  while (ends.length <= k) {
    if (path.done) return false
    const end = nextIndex(path.text, '/', ends.length === 0 ? path.first : ends[ends.length - 1]! + 1, path.to)
    ends.push(end)
    path.done = end === path.to
  }
  return true
}

function segmentCount(path: Path): number {
  while (has(path, path.ends.length));
  return path.ends.length
}

/** Where segment `k` starts; it must be in `ends`, as must every `k` below. */
function startOf(path: Path, k: number): number {
  return k === 0 ? path.first : path.ends[k - 1]! + 1
}

/** Segment `k` as written. */
function raw(path: Path, k: number): string {
  return path.text.slice(startOf(path, k), path.ends[k])
}

function decoded(path: Path, k: number): string | null {
  const start = startOf(path, k)
  return decodeSpan(path.text, start, path.ends[k]!, nextIndex(path.text, '%', start, path.ends[k]!))
}

/** Cut out and compared: for these short words that costs less than startsWith with a position. */
function isWord(path: Path, k: number, word: string): boolean {
  const start = startOf(path, k)
  return path.ends[k]! - start === word.length && path.text.slice(start, path.ends[k]) === word
}

function isEmpty(path: Path, k: number): boolean {
  return path.ends[k] === startOf(path, k)
}

/** How many parameter names of one endpoint parseChain compares a new one with before it looks names up instead. */
const NAMES_COMPARED = 16

const SLASH = 47
const E = 101
const P = 112
const C = 99

interface Chain {
  ok: true
  steps: Step[]
  responseType: ResponseType
  /** The facet of `options/<facet>`. */
  facet?: string
  given: boolean
}

/**
 * A chain error remembers how far into the path it happened (where the
 * segment it names starts), so the most telling one can be reported.
 */
type ChainFailure = { ok: false; error: UrlError; at: number }
type ChainResult = Chain | ChainFailure

function failAt(at: number, segment: string, message: string): ChainFailure {
  return { ok: false, error: { segment, message }, at }
}

/**
 * Reads the chain after `/api/<api>`: its segments start at `start` and the
 * path ends at `to` (`start` past `to`: no segment). `c`, `e` and `p` groups,
 * then an optional response type. A single empty segment at the very end is
 * a trailing slash; an empty segment in a name or value position is an empty
 * name or value.
 *
 * A `/p/` pair belongs to the last endpoint before it, even when a run of
 * `/c/` pairs stands between them: a context pair applies only to endpoints
 * after it, so moving it after that endpoint's parameters means the same.
 *
 * Reads in place: a marker is one character followed by `/` or the end,
 * told without looking for its end; only names and values are cut out. A
 * segment "ends the path" when it is the last one, or the last but an empty
 * one (a trailing slash): it ends at `to` or at `to - 1`.
 */
function parseChain(text: string, start: number, to: number): ChainResult {
  const steps: Step[] = []
  let endpoint: EndpointStep | null = null
  /** The names of `endpoint`'s parameters, `counted` of them (the array is reused from one endpoint to the next). */
  const named: string[] = []
  let counted = 0
  /** The context step being read: the last step, while the run of `/c/` pairs it holds goes on. */
  let context: Record<string, string> | null = null
  /** The first `%` at or after the segment being read, found again only once passed: one search per escaped segment. */
  let percent = -1
  let s = start
  while (s <= to) {
    const next = s + 1
    const first = s < to ? text.charCodeAt(s) : 0
    const marker = (first === E || first === P || first === C) && (next === to || text.charCodeAt(next) === SLASH) ? first : 0
    if (marker === E) {
      const nameStart = next + 1
      if (next === to || nameStart === to) return failAt(s, 'e', 'the endpoint marker "/e/" must be followed by an endpoint name')
      const nameEnd = nextIndex(text, '/', nameStart, to)
      if (percent < nameStart) percent = nextIndex(text, '%', nameStart, to)
      const name = decodeSpan(text, nameStart, nameEnd, percent)
      if (name === null) return { ok: false, error: badEncoding(text.slice(nameStart, nameEnd), 'endpoint name'), at: nameStart }
      endpoint = { endpoint: name, parameters: {} }
      counted = 0
      steps.push(endpoint)
      context = null
      s = nameEnd + 1
      continue
    }
    if (marker === P || marker === C) {
      const letter = marker === P ? 'p' : 'c'
      const nameStart = next + 1
      const nameEnd = next === to ? to : nextIndex(text, '/', nameStart, to)
      if (nameEnd === to) {
        const rawName = next === to ? '' : text.slice(nameStart, nameEnd)
        const what = marker === P ? 'parameter' : 'context parameter'
        return failAt(s, `${letter}/${rawName}`, `the ${what} "/${letter}/${rawName}" must be followed by a name and a value`)
      }
      const valueStart = nameEnd + 1
      const valueEnd = nextIndex(text, '/', valueStart, to)
      if (percent < nameStart) percent = nextIndex(text, '%', nameStart, to)
      const name = decodeSpan(text, nameStart, nameEnd, percent)
      if (name === null) {
        return { ok: false, error: badEncoding(text.slice(nameStart, nameEnd), marker === P ? 'parameter name' : 'context parameter name'), at: nameStart }
      }
      if (percent < valueStart) percent = nextIndex(text, '%', valueStart, to)
      const value = decodeSpan(text, valueStart, valueEnd, percent)
      if (value === null) return { ok: false, error: badEncoding(text.slice(valueStart, valueEnd), `value of "${name}"`), at: valueStart }
      if (marker === P) {
        if (!endpoint) {
          return failAt(s, `p/${text.slice(nameStart, nameEnd)}`, `parameter "${name}" stands before any endpoint; use /c/ for a context parameter`)
        }
        const parameters = endpoint.parameters
        // The endpoint's parameters are the names read since it: comparing with a few costs less than looking the name up.
        let earlier: string | undefined
        if (counted <= NAMES_COMPARED) {
          for (let k = 0; k < counted; k++) {
            if (named[k] === name) {
              earlier = parameters[name]
              break
            }
          }
        } else if (Object.hasOwn(parameters, name)) earlier = parameters[name]
        if (earlier === undefined) {
          setEntry(parameters, name, value)
          named[counted++] = name
        } else if (earlier !== value) {
          return failAt(
            s,
            `p/${text.slice(nameStart, nameEnd)}/${text.slice(valueStart, valueEnd)}`,
            `parameter "${name}" of endpoint "${endpoint.endpoint}" is given twice with different values ("${earlier}" and "${value}")`,
          )
        }
      } else {
        // A run of /c/ pairs is one context step; within it the later value wins (see normalize.ts).
        if (!context) {
          context = {}
          steps.push({ context })
        }
        setEntry(context, name, value)
      }
      s = valueEnd + 1
      continue
    }
    const end = nextIndex(text, '/', s, to)
    if (end >= to - 1) {
      const type = singleSegmentType(text.slice(s, end))
      if (type) return { ok: true, steps, responseType: type, given: true }
    }
    if (end - s === 7 && text.slice(s, end) === 'options') {
      const facetStart = end + 1
      const facetEnd = end === to ? to : nextIndex(text, '/', facetStart, to)
      if (end === to || facetEnd === facetStart || facetEnd < to - 1) {
        return failAt(s, 'options', 'the response type "options" must be the last two segments, followed by the facet options endpoint: /options/<facet>')
      }
      const facet = decodeSpan(text, facetStart, facetEnd, nextIndex(text, '%', facetStart, facetEnd))
      if (facet === null) return { ok: false, error: badEncoding(text.slice(facetStart, facetEnd), 'facet name'), at: facetStart }
      return { ok: true, steps, responseType: 'options', facet, given: true }
    }
    if (s === to) break
    const segment = text.slice(s, end)
    const after = endpoint ? ` after endpoint "${endpoint.endpoint}"` : ''
    return failAt(
      s,
      segment,
      `unexpected path segment "${segment}"${after}: expected e, p, c or a response type (${RESPONSE_TYPE_LABELS.join(', ')})`,
    )
  }
  return { ok: true, steps, responseType: 'results', given: false }
}

function decodeQueryPart(raw: string, what: string): Parsed<string> {
  const text = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw
  const value = decodeText(text)
  return value === null ? { ok: false, error: badEncoding(raw, what) } : { ok: true, value }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

/**
 * `Number(value)` for `value = text.slice(start, end)` when `value.trim()` is
 * a decimal as DECIMAL_PATTERN reads one, else NaN (which no decimal reads
 * as). Read by hand, where it stands, rather than cut out and tested with the
 * pattern: every read URL has a few numeric options, and a short decimal is
 * worked out on the way.
 */
function decimalIn(text: string, start: number, end: number): number {
  // Possible white space at either end: trim it as trim() does, then read the trimmed copy.
  if (start < end && !(isVisibleAscii(text.charCodeAt(start)) && isVisibleAscii(text.charCodeAt(end - 1)))) {
    const trimmed = text.slice(start, end).trim()
    return decimalOf(trimmed, 0, trimmed.length)
  }
  return decimalOf(text, start, end)
}

function isVisibleAscii(code: number): boolean {
  return code > 32 && code < 127
}

/** Powers of ten up to 10^15, each exactly a double (written out: `10 ** k` is not promised to be exact). */
const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

/** decimalIn on text with nothing to trim. */
function decimalOf(text: string, start: number, end: number): number {
  const negative = start < end && text.charCodeAt(start) === 45
  let i = negative ? start + 1 : start
  let value = 0
  const wholeFrom = i
  for (; i < end && isDigit(text.charCodeAt(i)); i++) value = value * 10 + text.charCodeAt(i) - 48
  const whole = i - wholeFrom
  let fraction = 0
  if (i < end && text.charCodeAt(i) === 46) {
    const from = ++i
    for (; i < end && isDigit(text.charCodeAt(i)); i++) value = value * 10 + text.charCodeAt(i) - 48
    fraction = i - from
  }
  if (whole + fraction === 0) return NaN
  if (i === end) {
    // Up to 15 digits the digits read as a whole number are exact, and so is 10^fraction: one division then rounds
    // exactly as Number does (the fast path of every correct decimal reader).
    if (whole + fraction <= 15) return (negative ? -value : value) / POWERS_OF_TEN[fraction]!
    return Number(text.slice(start, end))
  }
  if ((text.charCodeAt(i) | 32) !== 101) return NaN
  i++
  if (i < end && (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45)) i++
  const from = i
  while (i < end && isDigit(text.charCodeAt(i))) i++
  return i === from || i !== end ? NaN : Number(text.slice(start, end))
}

/**
 * The rank in OPTION_ORDER of the option named `name`, or -1. Options mostly
 * come in that order (the app writes them so), so the names after the last
 * one read are tried first.
 */
function optionRank(name: string, after: number): number {
  const count = OPTION_ORDER.length
  for (let k = 1; k <= count; k++) {
    const rank = (after + k) % count
    if (OPTION_ORDER[rank] === name) return rank
  }
  return -1
}

/**
 * Keeps an option this client does not know (a deployment's own, such as
 * `dev_version=master`), in the order given: real deployments ignore what they
 * do not use, so it is shown and sent back as written (SERVICE-CONTRACT
 * "Real deployments"). The same name twice follows the known options' rule.
 */
function keepExtra(options: QueryOptions, part: string, name: string, value: string): UrlError | null {
  if (name === '') return { segment: part, message: `an option needs a name before "=" (got "${part}")` }
  const extra = options.extra ?? (options.extra = {})
  const earlier = getEntry(extra, name)
  if (earlier !== undefined && earlier !== value) {
    return { segment: part, message: `option ${name} is given twice with different values ("${earlier}" and "${value}")` }
  }
  setEntry(extra, name, value)
  return null
}

/**
 * `options[key] = value`, each key written by name: one assignment with the
 * key in a variable would see every option object's shape and slow down to a
 * lookup by name.
 */
function setOption(options: QueryOptions, key: OptionName, value: string | number | boolean): void {
  switch (key) {
    case 'config':
      options.config = value as string
      break
    case 'count':
      options.count = value as number
      break
    case 'offset':
      options.offset = value as number
      break
    case 'format':
      options.format = value as string
      break
    case 'level':
      options.level = value as number
      break
    case 'homogeneousArrays':
      options.homogeneousArrays = value as boolean
      break
    case 'cutoff':
      options.cutoff = value as number
      break
    case 'rank':
      options.rank = value as number
      break
    case 'column':
      options.column = value as number
      break
    case 'multiselect':
      options.multiselect = value as boolean
      break
  }
}

/**
 * Reads the query string (`search` from `from` to `to`, with or without its
 * `?`): options in any order, `+` or `%20` for a space; names this client
 * does not know go to `extra`, as written. An option given twice with
 * different values is rejected rather than guessed at; the same value twice
 * is the same request.
 */
function parseOptions(search: string, from: number, to: number): Parsed<QueryOptions> {
  const options: QueryOptions = {}
  const first = from < to && search.charCodeAt(from) === 63 ? from + 1 : from
  if (first === to) return { ok: true, value: options }
  // Most query strings hold neither, and then each name and value is its own text.
  const plain = nextIndex(search, '%', first, to) === to && nextIndex(search, '+', first, to) === to
  let inOrder = true
  let lastRank = -1
  /** A bit per option read so far, by rank: an option not read before needs no lookup for an earlier value. */
  let given = 0
  for (let start = first, end = first; start <= to; start = end + 1) {
    end = nextIndex(search, '&', start, to)
    if (end === start) continue
    const eq = nextIndex(search, '=', start, end)
    let name: string
    // The value where it stands: in the query string itself when that holds no escapes (a number is read there), else a decoded copy.
    let valueText = search
    let valueStart = eq === end ? end : eq + 1
    let valueEnd = end
    if (plain) name = search.slice(start, eq)
    else {
      const readName = decodeQueryPart(search.slice(start, eq), 'option name')
      if (!readName.ok) return readName
      const value = decodeQueryPart(search.slice(valueStart, end), `option ${readName.value}`)
      if (!value.ok) return value
      name = readName.value
      valueText = value.value
      valueStart = 0
      valueEnd = valueText.length
    }
    const rank = optionRank(name, lastRank)
    if (rank < 0) {
      const error = keepExtra(options, search.slice(start, end), name, valueText.slice(valueStart, valueEnd))
      if (error) return { ok: false, error }
      continue
    }
    // The name as OPTION_ORDER holds it: the cases below then compare by reference rather than by content.
    const key = OPTION_ORDER[rank]!
    let read: string | number | boolean
    switch (key) {
      case 'config':
      case 'format':
        read = valueText.slice(valueStart, valueEnd)
        break
      case 'count':
      case 'offset':
      case 'level':
      case 'cutoff':
      case 'rank':
      case 'column':
        read = decimalIn(valueText, valueStart, valueEnd)
        if (Number.isNaN(read)) {
          return fail(search.slice(start, end), `option ${key} must be a number, not "${valueText.slice(valueStart, valueEnd)}"`)
        }
        break
      case 'homogeneousArrays':
      case 'multiselect': {
        const value = valueText.slice(valueStart, valueEnd)
        if (value !== 'true' && value !== 'false') return fail(search.slice(start, end), `option ${key} must be true or false, not "${value}"`)
        read = value === 'true'
        break
      }
    }
    if (rank < lastRank) inOrder = false
    lastRank = rank
    if ((given & (1 << rank)) !== 0) {
      const earlier = options[key]
      if (!Object.is(earlier, read)) {
        return fail(search.slice(start, end), `option ${key} is given twice with different values ("${String(earlier)}" and "${String(read)}")`)
      }
    }
    given |= 1 << rank
    setOption(options, key, read)
  }
  // Canonical order, so the model printed or saved reads the same whatever order was pasted.
  if (inOrder) {
    // The unknown ones go after the known, wherever they stood: the model reads the same as the URL built from it.
    const extra = options.extra
    if (extra) {
      delete options.extra
      options.extra = extra
    }
    return { ok: true, value: options }
  }
  const ordered: QueryOptions = {}
  for (const name of OPTION_ORDER) if (options[name] !== undefined) (ordered as Record<OptionName, unknown>)[name] = options[name]
  if (options.extra) ordered.extra = options.extra
  return { ok: true, value: ordered }
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
