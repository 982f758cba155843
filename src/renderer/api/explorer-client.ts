import type { Channel } from '../../shared/ipc/channels'
import type { ExplorerBridge, IpcFailure, ReplyOf, RequestOf } from '../../shared/ipc/contract'
import type { IpcError } from '../../shared/ipc/errors'

declare global {
  interface Window {
    explorer?: ExplorerBridge
  }
}

const KEY_STORAGE = 'query-explorer.session-key'
const NO_SESSION =
  'This page has no session with the app host: the address that opens it works once, and only for a short while. Restart `npm start` and open the new address it prints.'

/**
 * The browser host's stand-in for the preload bridge: the same channels over
 * loopback HTTP, each call carrying a session key. The page address carries
 * only a one-time code (a URL shows up in `ps` and history), traded here for
 * the key, which lives in sessionStorage: this tab and this origin only, port
 * included, where a cookie would reach every server on 127.0.0.1.
 */
function httpBridge(): ExplorerBridge {
  void sessionKey()
  return {
    async invoke(channel, request) {
      try {
        return (await hostRequest(`/ipc/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        })) as never
      } catch (error) {
        if (error instanceof ExplorerClientError) return { ok: false, error: error.error }
        throw error
      }
    },
  }
}

let session: Promise<string> | null = null

/** This tab's session key, traded once per page. */
function sessionKey(): Promise<string> {
  session ??= openSession()
  return session
}

/**
 * A request to the browser host with this tab's session key: its JSON
 * answer, or an ExplorerClientError whose message says in words why the
 * host refused it (the host's own sentence where it gave one).
 */
export async function hostRequest(path: string, init: { method: string; headers?: Record<string, string>; body?: BodyInit }): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(path, { ...init, headers: { ...init.headers, 'x-explorer-key': await sessionKey() } })
  } catch {
    throw new ExplorerClientError(networkError('The app host cannot be reached. Is `npm start` still running?'))
  }
  if (response.status === 401) throw new ExplorerClientError(networkError(NO_SESSION))
  if (!response.ok) throw new ExplorerClientError(networkError(await refusal(response)))
  try {
    return await response.json()
  } catch {
    throw new ExplorerClientError(networkError("The app host's answer was cut short or is not JSON; try again."))
  }
}

/** Why the host refused, in words: the sentence it sent (`{"message"}`), else what its status means. */
async function refusal(response: Response): Promise<string> {
  const text = await response.text().catch(() => '')
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message
    if (typeof message === 'string' && message.trim() !== '') return message.slice(0, 2_000)
  } catch {
    // Not JSON: the status says it.
  }
  const words: Record<number, string> = {
    400: 'the request was malformed',
    403: "it came from an address other than the app's own",
    404: 'the host does not know that address',
    405: 'the host does not take that kind of request there',
    413: 'it was larger than the host takes',
  }
  if (response.status >= 500) return 'Something went wrong inside the app host; the details are in its log.'
  const why = words[response.status] ?? `it answered HTTP ${response.status}`
  return `The app host refused the request: ${why}.`
}

/** The key of this tab: traded for the address's code if it has one, else the one kept from before a reload. */
async function openSession(): Promise<string> {
  const code = /(?:^#|&)code=([^&]+)/.exec(window.location.hash)?.[1]
  if (code) history.replaceState(null, '', window.location.pathname + window.location.search)
  const kept = sessionStorage.getItem(KEY_STORAGE) ?? ''
  if (!code) return kept
  try {
    const response = await fetch('/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    })
    const key = response.ok ? ((await response.json()) as { key?: unknown }).key : undefined
    if (typeof key !== 'string') return kept
    sessionStorage.setItem(KEY_STORAGE, key)
    return key
  } catch {
    return kept
  }
}

function networkError(message: string): IpcError {
  return { code: 'network', message }
}

const bridge: ExplorerBridge = window.explorer ?? httpBridge()

export class ExplorerClientError extends Error {
  constructor(readonly error: IpcFailure) {
    super(error.message)
  }
}

/** Calls a channel of the contract; failures come back as ExplorerClientError with the main process's message. */
export async function call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<ReplyOf<C>> {
  const result = await bridge.invoke(channel, request)
  if (!result.ok) throw new ExplorerClientError(result.error)
  return result.data
}

export function errorMessage(error: unknown): string {
  if (error instanceof ExplorerClientError) return error.message
  return 'Something unexpected went wrong in the window; try again.'
}
