import type { Channel } from '../../shared/ipc/channels'
import type { ExplorerBridge, IpcResult, ReplyOf, RequestOf } from '../../shared/ipc/contract'
import type { IpcError } from '../../shared/ipc/errors'

declare global {
  interface Window {
    explorer?: ExplorerBridge
  }
}

const KEY_STORAGE = 'query-explorer.launch-key'

/**
 * The browser host's stand-in for the preload bridge: the same channels over
 * loopback HTTP, each call carrying this launch's key. The key arrives in the
 * URL fragment (never sent to any server), is kept for this tab only, and is
 * removed from the address bar.
 */
function httpBridge(): ExplorerBridge {
  const match = /(?:^#|&)key=([^&]+)/.exec(window.location.hash)
  if (match?.[1]) {
    sessionStorage.setItem(KEY_STORAGE, match[1])
    history.replaceState(null, '', window.location.pathname + window.location.search)
  }
  const key = sessionStorage.getItem(KEY_STORAGE) ?? ''
  return {
    async invoke(channel, request) {
      try {
        const response = await fetch(`/ipc/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-explorer-key': key },
          body: JSON.stringify(request),
        })
        if (response.status === 401) {
          return failure('This page was opened without the launch key. Open the address printed by `npm start`.')
        }
        if (!response.ok) return failure(`The app host answered ${response.status}.`)
        return (await response.json()) as never
      } catch {
        return failure('The app host cannot be reached. Is `npm start` still running?')
      }
    },
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
