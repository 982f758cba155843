/**
 * The URL reader as it was before it read paths in place (url-parse.ts):
 * split into strings, every segment through decodeURIComponent. Kept as the
 * reference the faster reader must agree with, result for result and error
 * for error (url-parse-reference.test.ts); not used by the app.
 */
import {
  OPTION_ORDER,
  RESPONSE_TYPES,
  isEndpointStep,
  type EndpointStep,
  type OptionName,
  type QueryOptions,
  type QueryRequest,
  type ResponseType,
  type Step,
} from '../../src/shared/query/model'
import { DECIMAL_PATTERN } from '../../src/shared/number-text'
import { getEntry, setEntry } from '../../src/shared/query/records'
import { RESPONSE_TYPE_LABELS } from '../../src/shared/query/response-types'
import { VERSION_PATTERN, trimBase, type Parsed, type UrlError } from '../../src/shared/query/url-segments'

/**
 * Reading Query API URLs: the exact inverse of `buildUrl` (url-build.ts) on
 * normal chains (see normalize.ts), and also what people paste; what it cannot
 * read it rejects whole, naming the segment, so no caller ever holds a
 * half-parsed request.
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

/** The decoded text, or null when the segment is not valid percent-encoding. */
function decodeSegment(segment: string): string | null {
  // Most segments need no decoding; skipping the call keeps parsing cheap.
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

function badEncoding(segment: string, what: string): UrlError {
  return { segment, message: `${what} "${segment}" is not valid percent-encoding` }
}

/** A response type written as one segment (all but `options`), percent-encoded or not. */
function singleSegmentType(segment: string): ResponseType | null {
  const text = segment.includes('%') ? decodeSegment(segment) : segment
  return text !== null && text !== 'options' && (RESPONSE_TYPES as readonly string[]).includes(text) ? (text as ResponseType) : null
}

/** True when segments from `i` on are the last one, or the last one and a trailing slash. */
function endsAt(segments: readonly string[], i: number): boolean {
  const n = segments.length
  return i === n - 1 || (i === n - 2 && segments[n - 1] === '')
}

interface Chain {
  steps: Step[]
  responseType: ResponseType
  /** The facet of `options/<facet>`. */
  facet?: string
  given: boolean
}

/** A chain error remembers how far into the path it happened, so the most telling one can be reported. */
type ChainFailure = { ok: false; error: UrlError; at: number }
type ChainResult = { ok: true; value: Chain } | ChainFailure

function failAt(at: number, segment: string, message: string): ChainFailure {
  return { ok: false, error: { segment, message }, at }
}

/**
 * Reads the chain after `/api/<api>` (segments from `start`): `c`, `e` and `p`
 * groups, then an optional response type. A single empty segment at the very
 * end is a trailing slash; an empty segment in a name or value position is an
 * empty name or value.
 *
 * A `/p/` pair belongs to the last endpoint before it, even when a run of
 * `/c/` pairs stands between them: a context pair applies only to endpoints
 * after it, so moving it after that endpoint's parameters means the same.
 */
function parseChain(segments: readonly string[], start: number): ChainResult {
  const steps: Step[] = []
  let endpoint: EndpointStep | null = null
  let lastWasContext = false
  let i = start
  const n = segments.length
  while (i < n) {
    const marker = segments[i]!
    if (marker === 'e') {
      const raw = segments[i + 1]
      if (raw === undefined || (raw === '' && i + 2 === n)) {
        return failAt(i, 'e', 'the endpoint marker "/e/" must be followed by an endpoint name')
      }
      const name = decodeSegment(raw)
      if (name === null) return { ok: false, error: badEncoding(raw, 'endpoint name'), at: i + 1 }
      endpoint = { endpoint: name, parameters: {} }
      steps.push(endpoint)
      lastWasContext = false
      i += 2
      continue
    }
    if (marker === 'p' || marker === 'c') {
      const rawName = segments[i + 1]
      const rawValue = segments[i + 2]
      if (rawName === undefined || rawValue === undefined) {
        const what = marker === 'p' ? 'parameter' : 'context parameter'
        return failAt(i, `${marker}/${rawName ?? ''}`, `the ${what} "/${marker}/${rawName ?? ''}" must be followed by a name and a value`)
      }
      const name = decodeSegment(rawName)
      if (name === null) {
        return { ok: false, error: badEncoding(rawName, marker === 'p' ? 'parameter name' : 'context parameter name'), at: i + 1 }
      }
      const value = decodeSegment(rawValue)
      if (value === null) return { ok: false, error: badEncoding(rawValue, `value of "${name}"`), at: i + 2 }
      if (marker === 'p') {
        if (!endpoint) {
          return failAt(i, `p/${rawName}`, `parameter "${name}" stands before any endpoint; use /c/ for a context parameter`)
        }
        const parameters = endpoint.parameters
        const earlier = Object.hasOwn(parameters, name) ? parameters[name] : undefined
        if (earlier === undefined) setEntry(parameters, name, value)
        else if (earlier !== value) {
          return failAt(
            i,
            `p/${rawName}/${rawValue}`,
            `parameter "${name}" of endpoint "${endpoint.endpoint}" is given twice with different values ("${earlier}" and "${value}")`,
          )
        }
      } else {
        // A run of /c/ pairs is one context step; within it the later value wins (see normalize.ts).
        const last = steps[steps.length - 1]
        if (lastWasContext && last && !isEndpointStep(last)) setEntry(last.context, name, value)
        else {
          const context: Record<string, string> = {}
          setEntry(context, name, value)
          steps.push({ context })
          lastWasContext = true
        }
      }
      i += 3
      continue
    }
    if (endsAt(segments, i)) {
      const type = singleSegmentType(marker)
      if (type) return { ok: true, value: { steps, responseType: type, given: true } }
    }
    if (marker === 'options') {
      const raw = segments[i + 1]
      if (raw === undefined || raw === '' || !endsAt(segments, i + 1)) {
        return failAt(i, 'options', 'the response type "options" must be the last two segments, followed by the facet options endpoint: /options/<facet>')
      }
      const facet = decodeSegment(raw)
      if (facet === null) return { ok: false, error: badEncoding(raw, 'facet name'), at: i + 1 }
      return { ok: true, value: { steps, responseType: 'options', facet, given: true } }
    }
    if (marker === '' && i === n - 1) break
    const after = endpoint ? ` after endpoint "${endpoint.endpoint}"` : ''
    return failAt(
      i,
      marker,
      `unexpected path segment "${marker}"${after}: expected e, p, c or a response type (${RESPONSE_TYPE_LABELS.join(', ')})`,
    )
  }
  return { ok: true, value: { steps, responseType: 'results', given: false } }
}

function decodeQueryPart(raw: string, what: string): Parsed<string> {
  const text = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw
  const value = decodeSegment(text)
  return value === null ? { ok: false, error: badEncoding(raw, what) } : { ok: true, value }
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
 * Reads the query string: options in any order, `+` or `%20` for a space;
 * names this client does not know go to `extra`, as written. An option given
 * twice with different values is rejected rather than guessed at; the same
 * value twice is the same request.
 */
function parseOptions(search: string): Parsed<QueryOptions> {
  const options: QueryOptions = {}
  const text = search.startsWith('?') ? search.slice(1) : search
  if (text === '') return { ok: true, value: options }
  let inOrder = true
  let lastRank = -1
  for (const part of text.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const name = decodeQueryPart(eq < 0 ? part : part.slice(0, eq), 'option name')
    if (!name.ok) return name
    const value = decodeQueryPart(eq < 0 ? '' : part.slice(eq + 1), `option ${name.value}`)
    if (!value.ok) return value
    const v = value.value
    let read: string | number | boolean
    switch (name.value) {
      case 'config':
      case 'format':
        read = v
        break
      case 'count':
      case 'offset':
      case 'level':
      case 'cutoff':
      case 'rank':
      case 'column':
        if (!DECIMAL_PATTERN.test(v.trim())) return fail(part, `option ${name.value} must be a number, not "${v}"`)
        read = Number(v)
        break
      case 'homogeneousArrays':
      case 'multiselect':
        if (v !== 'true' && v !== 'false') return fail(part, `option ${name.value} must be true or false, not "${v}"`)
        read = v === 'true'
        break
      default: {
        const error = keepExtra(options, part, name.value, v)
        if (error) return { ok: false, error }
        continue
      }
    }
    const key = name.value as OptionName
    const rank = OPTION_ORDER.indexOf(key)
    if (rank < lastRank) inOrder = false
    lastRank = rank
    const earlier = options[key]
    if (earlier !== undefined && earlier !== read) {
      return fail(part, `option ${key} is given twice with different values ("${String(earlier)}" and "${String(read)}")`)
    }
    ;(options as Record<OptionName, unknown>)[key] = read
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

function splitPath(path: string): string[] {
  if (path === '' || path === '/') return []
  const segments = path.split('/')
  return path.startsWith('/') ? segments.slice(1) : segments
}

export interface TargetOptions {
  /**
   * How many leading path segments belong to the query URL itself, when the
   * caller knows it (a connection's query URL): then no other reading is tried.
   */
  prefixSegments?: number
}

function readAt(segments: readonly string[], j: number, hasVersion: boolean, search: string): ChainFailure | Parsed<ParsedTarget> {
  const chain = parseChain(segments, j + 2)
  if (!chain.ok) return chain
  const workspace = decodeSegment(segments[j - 1]!)
  if (workspace === null) return { ok: false, error: badEncoding(segments[j - 1]!, 'workspace') }
  const api = decodeSegment(segments[j + 1]!)
  if (api === null) return { ok: false, error: badEncoding(segments[j + 1]!, 'API name') }
  const options = parseOptions(search)
  if (!options.ok) return options
  const { steps, responseType, facet } = chain.value
  // Literals rather than conditional spreads: spreading costs more than the rest of the read.
  let request: QueryRequest = hasVersion
    ? { version: segments[j - 2]!, workspace, api, steps, responseType, options: options.value }
    : { workspace, api, steps, responseType, options: options.value }
  if (facet !== undefined) {
    // The facet after the response type, where a model file has it.
    const { options: given, ...head } = request
    request = { ...head, facet, options: given }
  }
  return { ok: true, value: { request, prefix: segments.slice(0, hasVersion ? j - 2 : j - 1), responseTypeGiven: chain.value.given } }
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
  const segments = splitPath(path)
  const fixed = options.prefixSegments
  let best: { error: UrlError; at: number } | null = null
  for (let j = fixed === undefined ? 1 : fixed + 1; j + 1 < segments.length; j++) {
    if (fixed !== undefined && j > fixed + 2) break
    if (segments[j] !== 'api') continue
    const hasVersion = j >= 2 && VERSION_PATTERN.test(segments[j - 2]!) && (fixed === undefined || j - 2 === fixed)
    if (fixed !== undefined && !hasVersion && j !== fixed + 1) continue
    const read = readAt(segments, j, hasVersion, search)
    if ('at' in read) {
      if (!best || read.at > best.at) best = read
      continue
    }
    if (read.ok && !hasVersion && segments[j + 1] === 'api' && VERSION_PATTERN.test(segments[j - 1]!) && j + 2 < segments.length) {
      const versioned = readAt(segments, j + 1, true, search)
      if (!('at' in versioned) && versioned.ok) return versioned
    }
    return read
  }
  if (best) return { ok: false, error: best.error }
  if (segments[segments.length - 1] === 'api' && segments.length >= 2) {
    return fail('api', 'the API name is missing after "/api"')
  }
  if (segments[0] === 'api') return fail('api', 'the workspace name is missing before "/api"')
  return fail(path === '' ? '/' : path, `no "/<workspace>/api/<api>" found in the path "${path || '/'}"`)
}

const URL_PATTERN = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/

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
  const match = URL_PATTERN.exec(text)
  if (!match) return fail(text, 'not an absolute http(s) URL (expected http://host/…)')
  const [, origin = '', path = '', search = ''] = match
  if (!/^https?:\/\//i.test(origin)) return fail(origin, 'only http and https URLs can be queried')
  if (/^https?:\/\/$/i.test(origin)) return fail(origin, 'the URL has no host')
  let targetOptions: TargetOptions = {}
  if (options.base !== undefined) {
    const base = trimBase(options.base)
    const rest = text.slice(base.length)
    if (!text.toLowerCase().startsWith(base.toLowerCase()) || !(rest === '' || rest.startsWith('/') || rest.startsWith('?'))) {
      return fail(origin + path, `the URL does not start with the query URL ${base}`)
    }
    targetOptions = { prefixSegments: splitPath(base.slice(origin.length)).length }
  }
  const target = parseTarget(path, search, targetOptions)
  if (!target.ok) return target
  const prefix = target.value.prefix.join('/')
  return { ok: true, value: { base: origin + (prefix ? `/${prefix}` : ''), request: target.value.request } }
}