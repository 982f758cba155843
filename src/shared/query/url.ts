import {
  OPTION_ORDER,
  RESPONSE_TYPES,
  isEndpointStep,
  type OptionName,
  type QueryOptions,
  type QueryRequest,
  type ResponseType,
  type Step,
} from './model'

/**
 * The Query API URL codec (SERVICE-CONTRACT "URLs"): one path segment per name
 * and value, `:FILTER` literal, options in canonical order. `parseUrl` is the
 * exact inverse of `buildUrl`, and also reads what people paste.
 */

const FILTER_SUFFIX = ':FILTER'
const VERSION_PATTERN = /^\d+(\.\d+)*$/

export interface UrlError {
  /** The piece of the URL that could not be read, as written. */
  segment: string
  message: string
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: UrlError }

export interface ParsedTarget {
  request: QueryRequest
  /** Raw path segments before the version/workspace: the query URL's own path. */
  prefix: string[]
  /** False when the path ends without `results`/`statistics`/`count` (then `results` is assumed). */
  responseTypeGiven: boolean
}

export interface ParsedUrl {
  /** The query URL the request was made against (origin plus its own path). */
  base: string
  request: QueryRequest
}

export function encodeSegment(value: string): string {
  return encodeURIComponent(value)
}

export function encodeEndpointName(name: string): string {
  return name.endsWith(FILTER_SUFFIX)
    ? encodeURIComponent(name.slice(0, -FILTER_SUFFIX.length)) + FILTER_SUFFIX
    : encodeURIComponent(name)
}

function pairs(record: Record<string, string>, marker: 'c' | 'p'): string {
  let path = ''
  for (const [name, value] of Object.entries(record)) path += `/${marker}/${encodeSegment(name)}/${encodeSegment(value)}`
  return path
}

function stepPath(step: Step): string {
  if (!isEndpointStep(step)) return pairs(step.context, 'c')
  return `/e/${encodeEndpointName(step.endpoint)}${pairs(step.parameters, 'p')}`
}

/** `/<version>/<workspace>/api/<api>/…/<response_type>`, no query string. */
export function buildPath(request: QueryRequest): string {
  const version = request.version === undefined ? '' : `/${encodeSegment(request.version)}`
  let path = `${version}/${encodeSegment(request.workspace)}/api/${encodeSegment(request.api)}`
  for (const step of request.steps) path += stepPath(step)
  return `${path}/${request.responseType}`
}

export function formatOption(name: OptionName, value: string | number | boolean): string {
  return `${name}=${encodeURIComponent(String(value))}`
}

/** Options the request sets, in canonical order; `?` included when there are any. */
export function buildQueryString(options: QueryOptions): string {
  const parts: string[] = []
  for (const name of OPTION_ORDER) {
    const value = options[name]
    if (value !== undefined) parts.push(formatOption(name, value))
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`
}

export function trimBase(base: string): string {
  return base.replace(/\/+$/, '')
}

export function buildUrl(base: string, request: QueryRequest): string {
  return trimBase(base) + buildPath(request) + buildQueryString(request.options)
}

/** The API description route: `…/<workspace>/api/<api>/`. */
export function buildDescriptionUrl(base: string, target: { version?: string | undefined; workspace: string; api: string }): string {
  const version = target.version === undefined ? '' : `/${encodeSegment(target.version)}`
  return `${trimBase(base)}${version}/${encodeSegment(target.workspace)}/api/${encodeSegment(target.api)}/`
}

function fail<T>(segment: string, message: string): Parsed<T> {
  return { ok: false, error: { segment, message } }
}

function decode(segment: string, what: string): Parsed<string> {
  try {
    return { ok: true, value: decodeURIComponent(segment) }
  } catch {
    return fail(segment, `${what} "${segment}" is not valid percent-encoding`)
  }
}

function isResponseType(segment: string): segment is ResponseType {
  return (RESPONSE_TYPES as readonly string[]).includes(segment)
}

/**
 * Reads the chain after `/api/<api>`: `c`, `e` and `p` groups, then an
 * optional response type. A single empty segment at the very end is a
 * trailing slash; an empty segment in a value position is an empty value.
 */
function parseChain(segments: string[]): Parsed<{ steps: Step[]; responseType: ResponseType; given: boolean }> {
  const steps: Step[] = []
  let i = 0
  let context: [string, string][] | null = null
  let endpoint: { name: string; parameters: [string, string][] } | null = null
  const closeContext = () => {
    if (context) steps.push({ context: Object.fromEntries(context) })
    context = null
  }
  const closeEndpoint = () => {
    if (endpoint) steps.push({ endpoint: endpoint.name, parameters: Object.fromEntries(endpoint.parameters) })
    endpoint = null
  }
  while (i < segments.length) {
    const marker = segments[i]!
    const atEnd = i === segments.length - 1
    if (marker === 'e') {
      const raw = segments[i + 1]
      if (raw === undefined) return fail('e', 'an endpoint marker "/e/" must be followed by the endpoint name')
      const name = decode(raw, 'endpoint name')
      if (!name.ok) return name
      closeContext()
      closeEndpoint()
      endpoint = { name: name.value, parameters: [] }
      i += 2
      continue
    }
    if (marker === 'p' || marker === 'c') {
      const rawName = segments[i + 1]
      const rawValue = segments[i + 2]
      if (rawName === undefined || rawValue === undefined) {
        const what = marker === 'p' ? 'parameter' : 'context parameter'
        return fail(`${marker}/${rawName ?? ''}`, `a ${what} "/${marker}/" must be followed by a name and a value`)
      }
      const name = decode(rawName, 'parameter name')
      if (!name.ok) return name
      const value = decode(rawValue, `value of "${name.value}"`)
      if (!value.ok) return value
      if (marker === 'p') {
        if (!endpoint) return fail(`p/${rawName}`, `parameter "${name.value}" stands before any endpoint; use /c/ for a context parameter`)
        const earlier = endpoint.parameters.find(([n]) => n === name.value)
        if (earlier && earlier[1] !== value.value) {
          return fail(
            `p/${rawName}/${rawValue}`,
            `parameter "${name.value}" of endpoint "${endpoint.name}" is given twice with different values ("${earlier[1]}" and "${value.value}")`,
          )
        }
        if (!earlier) endpoint.parameters.push([name.value, value.value])
      } else {
        closeEndpoint()
        context ??= []
        const earlier = context.find(([n]) => n === name.value)
        if (earlier) earlier[1] = value.value
        else context.push([name.value, value.value])
      }
      i += 3
      continue
    }
    if (isResponseType(marker) && (atEnd || (i === segments.length - 2 && segments[i + 1] === ''))) {
      closeContext()
      closeEndpoint()
      return { ok: true, value: { steps, responseType: marker, given: true } }
    }
    if (marker === '' && atEnd) break
    return fail(marker, `unexpected path segment "${marker}": expected e, p, c or a response type (${RESPONSE_TYPES.join(', ')})`)
  }
  closeContext()
  closeEndpoint()
  return { ok: true, value: { steps, responseType: 'results', given: false } }
}

const NUMBER_PATTERN = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/

function parseOptions(search: string): Parsed<QueryOptions> {
  const options: QueryOptions = {}
  const text = search.startsWith('?') ? search.slice(1) : search
  if (text === '') return { ok: true, value: options }
  for (const part of text.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const rawName = eq < 0 ? part : part.slice(0, eq)
    const rawValue = eq < 0 ? '' : part.slice(eq + 1)
    const name = decode(rawName.replace(/\+/g, ' '), 'option name')
    if (!name.ok) return name
    const value = decode(rawValue.replace(/\+/g, ' '), `option ${name.value}`)
    if (!value.ok) return value
    const v = value.value
    switch (name.value) {
      case 'config':
      case 'format':
        options[name.value] = v
        break
      case 'count':
      case 'offset':
      case 'level':
      case 'cutoff':
        if (!NUMBER_PATTERN.test(v.trim())) return fail(part, `option ${name.value} must be a number, not "${v}"`)
        options[name.value] = Number(v)
        break
      case 'homogeneousArrays':
        if (v !== 'true' && v !== 'false') return fail(part, `option homogeneousArrays must be true or false, not "${v}"`)
        options.homogeneousArrays = v === 'true'
        break
      default:
        return fail(part, `unknown option "${name.value}" (known: ${OPTION_ORDER.join(', ')})`)
    }
  }
  return { ok: true, value: options }
}

function splitPath(path: string): string[] {
  const trimmed = path.startsWith('/') ? path.slice(1) : path
  return trimmed === '' ? [] : trimmed.split('/')
}

/**
 * Reads `<prefix…>/[<version>/]<workspace>/api/<api>/<chain>[?options]`.
 * The `api` marker taken is the leftmost one after which the rest reads as a
 * chain, so a query URL whose own path contains `api` still parses.
 */
export function parseTarget(path: string, search = ''): Parsed<ParsedTarget> {
  const segments = splitPath(path)
  let firstError: UrlError | null = null
  for (let j = 1; j + 1 < segments.length; j++) {
    if (segments[j] !== 'api') continue
    const chain = parseChain(segments.slice(j + 2))
    if (!chain.ok) {
      firstError ??= chain.error
      continue
    }
    const workspace = decode(segments[j - 1]!, 'workspace')
    if (!workspace.ok) return workspace
    const api = decode(segments[j + 1]!, 'api name')
    if (!api.ok) return api
    const maybeVersion = j >= 2 ? segments[j - 2]! : undefined
    const hasVersion = maybeVersion !== undefined && VERSION_PATTERN.test(maybeVersion)
    const options = parseOptions(search)
    if (!options.ok) return options
    const request: QueryRequest = {
      ...(hasVersion ? { version: maybeVersion } : {}),
      workspace: workspace.value,
      api: api.value,
      steps: chain.value.steps,
      responseType: chain.value.responseType,
      options: options.value,
    }
    return {
      ok: true,
      value: { request, prefix: segments.slice(0, hasVersion ? j - 2 : j - 1), responseTypeGiven: chain.value.given },
    }
  }
  return { ok: false, error: firstError ?? { segment: path, message: 'no "/<workspace>/api/<api>" found in the path' } }
}

/** Reads a pasted Query API URL into its base and request; never half-parses. */
export function parseUrl(input: string): Parsed<ParsedUrl> {
  const text = input.trim()
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(text)
  if (!match) return fail(text, 'not an absolute http(s) URL (expected http://host/…)')
  const [, origin = '', path = '', search = ''] = match
  if (!/^https?:\/\//i.test(origin)) return fail(origin, 'only http and https URLs can be queried')
  if (/^https?:\/\/$/i.test(origin)) return fail(origin, 'the URL has no host')
  const target = parseTarget(path, search)
  if (!target.ok) return target
  const prefix = target.value.prefix.join('/')
  return { ok: true, value: { base: origin + (prefix ? `/${prefix}` : ''), request: target.value.request } }
}
