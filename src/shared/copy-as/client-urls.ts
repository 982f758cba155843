/**
 * The URL each official client (../shared/reference-clients) writes for a
 * call, described from how they behave, so "Copy as" can tell whether a call
 * through the client sends exactly the request the window holds, and
 * otherwise send that request's URL itself. Both clients join their path
 * pieces with a helper that splits on `/`, drops `.` and climbs on `..`;
 * the TypeScript client percent-encodes names and values but writes the
 * version, workspace, API, facet, config and option values raw; the Python
 * client encodes only parameter names and values, and leaves `/` in them.
 */

export interface ClientQuery {
  endpoint: string
  parameters: Array<[string, string]>
}

export interface ClientCall {
  baseUrl: string
  version: string
  workspace: string
  api: string
  config: string
  queries: ClientQuery[]
  /** The client's request type as written in the URL: `results`, `options`, … */
  requestType: string
  options: Array<[string, string]>
}

/** The clients' path joiner: pieces split on `/` (one leading slash off all but the first, one trailing off each), `.` dropped, `..` climbs. */
function joinLike(pieces: readonly string[], trim: 'one' | 'all'): string {
  const parts: string[] = []
  pieces.forEach((piece, index) => {
    let text = piece
    if (trim === 'one') {
      if (index > 0) text = text.replace(/^\//, '')
      text = text.replace(/\/$/, '')
    } else {
      text = index > 0 ? text.replace(/^\/+|\/+$/g, '') : text.replace(/\/+$/, '')
    }
    parts.push(...text.split('/'))
  })
  const out: string[] = []
  for (const part of parts) {
    if (part === '.') continue
    if (part === '..') out.pop()
    else out.push(part)
  }
  return out.join('/')
}

const withSlash = (base: string) => (base.endsWith('/') ? base : `${base}/`)

/** What `new Api({...}).fetch(queries, options, requestType)` of `@spinque/query-api` requests. */
export function typeScriptClientUrl(call: ClientCall): string {
  const join = (...pieces: string[]) => joinLike(pieces, 'one')
  const path = (query: ClientQuery) =>
    join(
      'e',
      encodeURIComponent(query.endpoint).replace('%3AFILTER', ':FILTER'),
      ...query.parameters.flatMap(([name, value]) => ['p', encodeURIComponent(name), encodeURIComponent(value)]),
    )
  let url = withSlash(call.baseUrl) + join(call.version, call.workspace, 'api', call.api)
  if (call.requestType === 'options') {
    const last = call.queries[call.queries.length - 1]?.endpoint ?? ''
    const facet = last.endsWith(':FILTER') ? last.slice(0, -':FILTER'.length) : last
    url += '/' + join(...call.queries.slice(0, -1).map(path), call.requestType, facet)
  } else {
    url += '/' + join(...call.queries.map(path), call.requestType)
  }
  if (call.config) url += `?config=${call.config}`
  call.options.forEach(([name, value], index) => {
    url += `${index === 0 && !call.config ? '?' : '&'}${name}=${value}`
  })
  return url
}

/** Python's `urllib.parse.quote` with its default `safe='/'`. */
function pyQuote(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%2F/g, '/')
}

/** `urlencode` as `requests` writes a params dict: spaces as `+`. */
const formEncode = (value: string) => pyQuote(value).replace(/\//g, '%2F').replace(/%20/g, '+')

/** What `Api(...).fetch(queries, options, result_type)` of `spinque_query_api` requests (results and statistics only). */
export function pythonClientUrl(call: ClientCall): string {
  const join = (pieces: string[]) => joinLike(pieces, 'all')
  const path = (query: ClientQuery) =>
    join(['e', query.endpoint, ...query.parameters.flatMap(([name, value]) => ['p', pyQuote(name), pyQuote(value)])])
  let url = withSlash(call.baseUrl) + join([call.version, call.workspace, 'api', call.api])
  url += '/' + join([join(call.queries.map(path)), call.requestType])
  if (call.config) url += `?config=${call.config}`
  const params = call.options.map(([name, value]) => `${formEncode(name)}=${formEncode(value)}`).join('&')
  if (params) url += `${url.includes('?') ? '&' : '?'}${params}`
  return url
}

function pathSegments(path: string): string[] | null {
  try {
    return path.split('/').map((segment) => decodeURIComponent(segment))
  } catch {
    return null
  }
}

function queryPairs(search: string): string[] {
  return [...new URLSearchParams(search)].map(([name, value]) => JSON.stringify([name, value])).sort()
}

/**
 * Whether a server reads the two URLs as one request: the same origin, the
 * same path segments once decoded (so `(` and `%28` agree, but `%2F` and `/`
 * do not), and the same options in any order.
 */
export function sameRequest(a: string, b: string): boolean {
  const split = (url: string) => {
    const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(\?[^#]*)?$/i.exec(url)
    return match ? { origin: match[1]!.toLowerCase(), path: match[2]!, search: match[3] ?? '' } : null
  }
  const left = split(a)
  const right = split(b)
  if (!left || !right || left.origin !== right.origin) return false
  const leftPath = pathSegments(left.path)
  const rightPath = pathSegments(right.path)
  if (!leftPath || !rightPath || leftPath.length !== rightPath.length || leftPath.some((segment, index) => segment !== rightPath[index])) return false
  const leftQuery = queryPairs(left.search)
  const rightQuery = queryPairs(right.search)
  return leftQuery.length === rightQuery.length && leftQuery.every((pair, index) => pair === rightQuery[index])
}
