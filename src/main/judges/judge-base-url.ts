import { httpOrigin } from './guarded-fetch'
import { urlRelation, type MatchHow } from '../../shared/workspace/connection-match'
import type { WorkspaceConnection } from '../../shared/workspace/workspace-file'

/**
 * Where a judge's calls go. A workspace file names its judge's base URL as
 * it was written (the example's demo judge: http://127.0.0.1:8080/v1), but
 * the demo service listens on a new port every launch, and the file's
 * connection to it is bound "moved" (connection-match.ts). The judge moves
 * with it: when a file connection has the judge's origin and is bound to an
 * app connection whose URLs differ from its own only in host or port, the
 * judge's base URL takes that connection's host and port. Any other judge
 * keeps its base URL as written, and the key bound to that origin is only
 * ever sent there.
 */

/** One file connection with the app connection it runs on, as the session binds them (or the command line's embedded demo). */
export interface BoundConnection {
  file: Pick<WorkspaceConnection, 'authUrl' | 'queryUrl'>
  app: { authUrl: string; queryUrl: string }
  how: MatchHow
}

/** The judge's base URL, moved with a connection bound "moved" that has its origin; unchanged otherwise. Pure. */
export function judgeBaseUrl(baseUrl: string, bound: readonly BoundConnection[]): string {
  const origin = httpOrigin(baseUrl)
  if (origin === '') return baseUrl
  for (const { file, app, how } of bound) {
    if (how !== 'moved') continue
    for (const [from, to] of [
      [file.queryUrl, app.queryUrl],
      [file.authUrl, app.authUrl],
    ] as const) {
      // Only a move: the same scheme and path, another host or port (urlRelation's "moved", as the binding was made).
      if (httpOrigin(from) !== origin || urlRelation(from, to) !== 'moved') continue
      const moved = new URL(baseUrl)
      moved.host = new URL(to).host
      // URL writes a bare origin with a slash: keep the base URL as it was written but for its host.
      return baseUrl.endsWith('/') || new URL(baseUrl).pathname !== '/' ? moved.href : moved.href.replace(/\/$/, '')
    }
  }
  return baseUrl
}

/**
 * The open workspace's connections with the app connections they are bound
 * to (session bindings), for judgeBaseUrl; `appOf` gives an app connection's
 * URLs by id, or null when it is gone (that binding then moves nothing).
 */
export function boundConnections(
  connections: readonly Pick<WorkspaceConnection, 'id' | 'authUrl' | 'queryUrl'>[],
  bindings: readonly { fileConnectionId: string; connectionId: string; how: MatchHow }[],
  appOf: (connectionId: string) => { authUrl: string; queryUrl: string } | null,
): BoundConnection[] {
  return bindings.flatMap((binding) => {
    const file = connections.find((connection) => connection.id === binding.fileConnectionId)
    const app = file ? appOf(binding.connectionId) : null
    return file && app ? [{ file, app, how: binding.how }] : []
  })
}
