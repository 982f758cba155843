import { terminalSafe } from '../text/terminal-safe'

/**
 * A Query API error status read as the official clients type it, worded as
 * the one sentence the window and the command line both show. The kinds and
 * their order follow the TypeScript client's `handleResponse` (the Python
 * client's `response_handler` knows a subset): 401 is unauthorized whatever
 * it says; a 400 is "endpoint not found" only when its message says `no
 * endpoint`; 404 is "api not found" or "workspace configuration not found"
 * only by its message, since a real deployment's 404 may be anything else;
 * every other answer is unknown, told with its own `{message}`.
 */

export const SERVICE_ERROR_KINDS = ['unauthorized', 'endpoint-not-found', 'api-not-found', 'config-not-found', 'server-error', 'unknown'] as const
export type ServiceErrorKind = (typeof SERVICE_ERROR_KINDS)[number]

export function serviceErrorKind(status: number, message: string | null): ServiceErrorKind {
  const text = message ?? ''
  if (status === 401) return 'unauthorized'
  if (status === 400 && text.includes('no endpoint')) return 'endpoint-not-found'
  if (status === 500) return 'server-error'
  if (status === 404 && text.includes('No such api')) return 'api-not-found'
  if (status === 404 && text.includes('No such workspace configuration')) return 'config-not-found'
  return 'unknown'
}

/** The most characters of a server's message a sentence quotes: enough for any real one, never a page. */
export const MAX_QUOTED_MESSAGE = 300
/** Names the request holds (an endpoint, an API) are the user's own, but may be pasted: bounded as well. */
const MAX_QUOTED_NAME = 100

/**
 * A server's text as a sentence may quote it: cut to `max` characters (with
 * "…"), and every control character shown as a visible escape (`\n`,
 * `\x1b`, `⟨U+202E⟩`), so neither the window nor a terminal obeys it.
 */
export function quoteServerText(text: string, max = MAX_QUOTED_MESSAGE): string {
  const trimmed = text.trim()
  const cut = trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed
  return terminalSafe(cut)
}

/** What the request asked, for the sentence to name what to check. */
export interface ServiceErrorContext {
  workspace?: string | undefined
  api?: string | undefined
  /** The `config` the URL sent; undefined when it sent none (the service then uses its default). */
  config?: string | undefined
  /** The chain's endpoint names in order (an options request's facet included). */
  endpoints?: readonly string[] | undefined
  /** Whether the request carried a token: a 401 then means the token was refused, else that one is needed. */
  tokenSent?: boolean | undefined
}

export interface ServiceErrorText {
  kind: ServiceErrorKind
  /**
   * The IPC error code: 401 and 403 are the account's business (auth), the rest the request's (http).
   * Spelled here, not read from ipc/errors (which reads this module's kinds): an ExplorerError built from it checks both are codes.
   */
  code: 'auth' | 'http'
  message: string
}

const name = (text: string) => `"${quoteServerText(text, MAX_QUOTED_NAME)}"`

/** A sentence's end: the server's own punctuation kept, a full stop added where it has none. */
function closed(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`
}

/** The endpoint a "no endpoint" message is about: the one of the chain it names, else the chain's only one. */
export function unknownEndpoint(message: string, endpoints: readonly string[]): string | null {
  const distinct = [...new Set(endpoints.filter((endpoint) => endpoint !== ''))]
  // `no endpoint named "x" in api "y"`: the name right after the words, before any other quoted name.
  const direct = /no endpoint(?: named)?\s+["']?([^"'\s]+?)["']?(?=[\s,.;)]|$)/.exec(message)?.[1]
  if (direct !== undefined && distinct.includes(direct)) return direct
  const quoted = distinct.filter((endpoint) => message.includes(`"${endpoint}"`) || message.includes(`'${endpoint}'`))
  if (quoted.length === 1) return quoted[0]!
  const mentioned = distinct.filter((endpoint) => new RegExp(`(^|[\\s/:(])${escapeRegExp(endpoint)}($|[\\s/,.;)])`).test(message))
  if (mentioned.length === 1) return mentioned[0]!
  return distinct.length === 1 ? distinct[0]! : null
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function checkFor(kind: ServiceErrorKind, message: string, context: ServiceErrorContext): string {
  const api = context.api ? name(context.api) : null
  const workspace = context.workspace ? name(context.workspace) : null
  switch (kind) {
    case 'unauthorized':
      return context.tokenSent
        ? "Check the connection's client ID and secret, its Token request (the /api/auth route or OAuth) and auth URL, and for OAuth its Audience: the Query API accepts only tokens issued for it."
        : 'This API needs a token and none was sent: give the connection a client ID and secret (with the Token request and auth URL its deployment uses).'
    case 'endpoint-not-found': {
      const endpoint = unknownEndpoint(message, context.endpoints ?? [])
      const where = api ? `API ${api}` : 'the API'
      if (endpoint !== null) return `Check the endpoint name ${name(endpoint)}: ${where} has no endpoint of that name.`
      const listed = [...new Set(context.endpoints ?? [])].slice(0, 8).map(name)
      return listed.length > 0 ? `Check the endpoint names of the chain (${listed.join(', ')}): ${where} lacks one of them.` : 'Check the endpoint names of the chain.'
    }
    case 'api-not-found':
      return api && workspace
        ? `Check the API name (${api}) and the workspace (${workspace}): the service has no such API in that workspace.`
        : 'Check the API name and the workspace: the service has no such API.'
    case 'config-not-found': {
      const of = workspace ? `workspace ${workspace}` : 'the workspace'
      return context.config !== undefined
        ? `Check the configuration: ${name(context.config)} was sent, and ${of} has no configuration of that name.`
        : `Check the configuration: none was sent, so the service looked for its default, which ${of} does not have.`
    }
    case 'server-error':
      return "This is a fault of the service, not of the request: try again later, or report the request URL to the service's administrators."
    case 'unknown':
      return ''
  }
}

/**
 * The sentence for an error status: "The service answered 404: <its message>.
 * <what to check>". `message` is the server's `{message}` (null when the body
 * had none); `unreadable` says what came instead ("no readable message (the
 * body is an HTML page)."). A token refused after its one renewal reads "The
 * service refused a freshly issued token (401: …)".
 */
export function describeServiceError(status: number, message: string | null, context: ServiceErrorContext = {}, unreadable = 'no readable message.'): ServiceErrorText {
  const kind = serviceErrorKind(status, message)
  const said = message !== null && message.trim() !== '' ? quoteServerText(message) : null
  const code = status === 401 || status === 403 ? 'auth' : 'http'
  const check = checkFor(kind, message ?? '', context)
  if (kind === 'unauthorized' && context.tokenSent) {
    return { kind, code, message: `The service refused a freshly issued token (401: ${said ?? 'no reason given'}). ${check}` }
  }
  const head = `The service answered ${status}: ${said ?? unreadable}`
  return { kind, code, message: check === '' ? head : `${closed(head)} ${check}` }
}
