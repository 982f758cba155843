import { OPTION_ORDER, isEndpointStep, type OptionName, type QueryOptions, type QueryRequest, type Step } from './model'
import { isNormalChain, normalizeSteps } from './normalize'
import { hasEntry } from './records'
import { encodeEndpointName, encodeSegment, trimBase } from './url-segments'
import { versionSegment, withSentVersion } from './version-segment'

/**
 * Writing Query API URLs (SERVICE-CONTRACT "URLs"): one path segment per name
 * and value, `:FILTER` literal, options in canonical order. url-parse.ts reads
 * them back. Pure: no module state. A caller that writes many URLs for one API
 * may keep a `rootMemo()` of its own and pass it in.
 */

/**
 * `path` followed by the pairs of `record`. Each piece is added to the path
 * itself, which is long: that only links the two strings, where joining the
 * short pieces first (a template literal) copies them into new strings.
 */
function appendPairs(path: string, record: Record<string, string>, marker: '/c/' | '/p/'): string {
  for (const name in record) {
    if (hasEntry(record, name)) path = path + marker + encodeSegment(name) + '/' + encodeSegment(record[name]!)
  }
  return path
}

function appendStep(path: string, step: Step): string {
  if (!isEndpointStep(step)) return appendPairs(path, step.context, '/c/')
  return appendPairs(path + '/e/' + encodeEndpointName(step.endpoint), step.parameters, '/p/')
}

/**
 * The end of the path: the response type as it is (`results,count` with its
 * comma literal, as the client libraries write it), or `options/<facet>`.
 */
function responseTypePath(request: QueryRequest): string {
  return request.responseType === 'options' ? `options/${encodeEndpointName(request.facet ?? '')}` : request.responseType
}

/** Writes `[/<version>]/<workspace>/api/<api>`: the root of every request to one API. */
export type RootWriter = (version: string | undefined, workspace: string, api: string) => string

export function rootPath(version: string | undefined, workspace: string, api: string): string {
  return `${versionSegment(version)}/${encodeSegment(workspace)}/api/${encodeSegment(api)}`
}

/**
 * `rootPath` remembering the last root it wrote: a session sends its requests
 * to one API, so its root is written once. The memo is the caller's (one per
 * runner), not this module's.
 */
export function rootMemo(): RootWriter {
  let last = { version: undefined as string | undefined, workspace: '', api: '', path: '' }
  return (version, workspace, api) => {
    if (last.path !== '' && last.version === version && last.workspace === workspace && last.api === api) return last.path
    const path = rootPath(version, workspace, api)
    last = { version, workspace, api, path }
    return path
  }
}

/**
 * `/<version>/<workspace>/api/<api>/…/<response_type>`, no query string.
 * Writes the chain's normal form, so two requests that mean the same chain
 * write the same path. Throws URIError on text that is not well-formed
 * unicode (a lone surrogate); validation reports that first.
 */
export function buildPath(request: QueryRequest, root: RootWriter = rootPath): string {
  let path = root(request.version, request.workspace, request.api)
  const steps = isNormalChain(request.steps) ? request.steps : normalizeSteps(request.steps)
  for (const step of steps) path = appendStep(path, step)
  return path + '/' + responseTypePath(request)
}

/** `String(-0)` is "0"; "-0" keeps the value exact through a round trip. */
export function formatNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value)
}

export function formatOption(name: OptionName, value: string | number | boolean): string {
  return `${name}=${encodeSegment(typeof value === 'number' ? formatNumber(value) : String(value))}`
}

/**
 * Options the request sets, in canonical order, then the ones this client
 * does not know (`extra`) in their own order, each name and value one
 * encoded segment; `?` included when there are any.
 */
export function buildQueryString(options: QueryOptions): string {
  let query = ''
  for (const name of OPTION_ORDER) {
    const value = options[name]
    if (value !== undefined) query += (query === '' ? '?' : '&') + formatOption(name, value)
  }
  const extra = options.extra
  if (extra) {
    for (const name in extra) {
      if (hasEntry(extra, name)) query += `${query === '' ? '?' : '&'}${encodeSegment(name)}=${encodeSegment(extra[name]!)}`
    }
  }
  return query
}

export function buildUrl(base: string, request: QueryRequest, root: RootWriter = rootPath): string {
  return trimBase(base) + buildPath(request, root) + buildQueryString(request.options)
}

/** The API description route: `…/<workspace>/api/<api>/`. */
export function buildDescriptionUrl(base: string, target: { version?: string | undefined; workspace: string; api: string }): string {
  return `${trimBase(base)}${rootPath(target.version, target.workspace, target.api)}/`
}

/**
 * The URL a connection sends for `request`: `buildUrl` on the request with
 * the connection's version filled in (see version-segment.ts). The runner,
 * the history record and anything showing "the URL sent" write it with this.
 */
export function buildSentUrl(queryUrl: string, connectionVersion: string | undefined, request: QueryRequest, root: RootWriter = rootPath): string {
  return buildUrl(queryUrl, withSentVersion(request, connectionVersion), root)
}
