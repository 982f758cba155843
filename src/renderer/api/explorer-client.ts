import type { Channel } from '../../shared/ipc/channels'
import type { ExplorerBridge, IpcResult, ReplyOf, RequestOf } from '../../shared/ipc/contract'
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
  const session = openSession()
  return {
    async invoke(channel, request) {
      try {
        const response = await fetch(`/ipc/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-explorer-key': await session },
          body: JSON.stringify(request),
        })
        if (response.status === 401) return failure(NO_SESSION)
        if (!response.ok) return failure(`The app host answered ${response.status}.`)
        return (await response.json()) as never
      } catch {
        return failure('The app host cannot be reached. Is `npm start` still running?')
      }
    },
  }
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

function failure(message: string): IpcResult<never> {
  return { ok: false, error: { code: 'network', message } }
}

const bridge: ExplorerBridge = window.explorer ?? httpBridge()

export class ExplorerClientError extends Error {
  constructor(readonly error: IpcError) {
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
