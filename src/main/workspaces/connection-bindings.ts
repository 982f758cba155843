import type { ConnectionInput } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import { matchConnection, relationTo } from '../../shared/workspace/connection-match'
import { withConnection } from '../../shared/workspace/query-edits'
import type { Workspace, WorkspaceConnection } from '../../shared/workspace/workspace-file'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { StoredConnection } from '../connections/connection-store'
import type { StoredBinding } from './session-file'

/**
 * Which app connection each of the open workspace's connections runs on: the
 * bindings the session keeps beside the document, found when a file is
 * opened, chosen by the user, or made when a query is saved on an app
 * connection the file does not describe yet.
 */

/** One of the file's connections, by its id inside the file. */
export function fileConnection(workspace: Workspace, id: string): WorkspaceConnection {
  const connection = workspace.connections.find((each) => each.id === id)
  if (!connection) throw new ExplorerError('not_found', `The workspace has no connection "${id}".`)
  return connection
}

/** The binding of a file connection, if the app connection it names still exists. */
export function bindingOf(registry: ConnectionRegistry, bindings: readonly StoredBinding[], fileConnectionId: string): StoredBinding | null {
  const binding = bindings.find((each) => each.fileConnectionId === fileConnectionId)
  if (!binding) return null
  try {
    registry.get(binding.connectionId)
    return binding
  } catch {
    return null
  }
}

/** The bindings of a workspace just read: each of its connections the app has a fitting connection for. */
export async function matchAll(registry: ConnectionRegistry, workspace: Workspace): Promise<StoredBinding[]> {
  const connections = await registry.list()
  const demo = connections.find((connection) => connection.builtIn)?.id
  return workspace.connections.flatMap((connection) => {
    const match = matchConnection(connection, connections, demo)
    return match ? [{ fileConnectionId: connection.id, ...match }] : []
  })
}

/**
 * The file connection a query saved on this app connection runs on: the one
 * bound to it; else one not bound yet that describes it; else a new one,
 * described from the profile (never its deadline, never a secret).
 */
export function fileConnectionFor(
  registry: ConnectionRegistry,
  state: { workspace: Workspace; bindings: StoredBinding[] },
  app: StoredConnection,
): { workspace: Workspace; bindings: StoredBinding[]; fileConnectionId: string } {
  const { workspace, bindings } = state
  const bound = workspace.connections.find((connection) => bindingOf(registry, bindings, connection.id)?.connectionId === app.id)
  if (bound) return { workspace, bindings, fileConnectionId: bound.id }
  for (const connection of workspace.connections) {
    const how = bindingOf(registry, bindings, connection.id) ? null : relationTo(connection, app)
    if (how) return { workspace, bindings: withBinding(bindings, { fileConnectionId: connection.id, connectionId: app.id, how }), fileConnectionId: connection.id }
  }
  const added = withConnection(workspace, describedFields(app))
  return {
    workspace: added.workspace,
    bindings: withBinding(bindings, { fileConnectionId: added.id, connectionId: app.id, how: 'same' }),
    fileConnectionId: added.id,
  }
}

/**
 * Saves an app connection from a file connection's description, under a free
 * name (`source` is the workspace's name, for telling it apart); the secret
 * the user typed goes to the keychain through the registry, bound to the
 * description's auth origin, and nowhere else.
 */
export async function createDescribedConnection(
  registry: ConnectionRegistry,
  described: WorkspaceConnection,
  source: string,
  secret?: string,
): Promise<StoredConnection> {
  if (secret && !described.clientId.trim()) {
    throw new ExplorerError('validation', `Client ID: the connection "${described.name}" has no client ID, so a client secret has nothing to belong to.`)
  }
  const taken = new Set((await registry.list()).map((connection) => connection.name))
  const input: ConnectionInput = {
    ...describedFields(described),
    name: connectionName(described.name, source, (name) => taken.has(name)),
  }
  const saved = await registry.save(input)
  if (secret) {
    try {
      await registry.setSecret(saved.id, secret)
    } catch (error) {
      // A connection made to hold this secret would fail later for no visible reason without it.
      await registry.delete(saved.id).catch(() => false)
      throw error
    }
  }
  return saved
}

export function withBinding(bindings: StoredBinding[], binding: StoredBinding): StoredBinding[] {
  return [...bindings.filter((each) => each.fileConnectionId !== binding.fileConnectionId), binding]
}

/** The fields a workspace file and a profile share: never the id, the deadline or a secret. */
function describedFields(connection: Omit<WorkspaceConnection, 'id'> | StoredConnection): Omit<WorkspaceConnection, 'id'> {
  return {
    name: connection.name,
    authUrl: connection.authUrl,
    queryUrl: connection.queryUrl,
    ...(connection.version !== undefined ? { version: connection.version } : {}),
    workspace: connection.workspace,
    api: connection.api,
    ...(connection.config !== undefined ? { config: connection.config } : {}),
    clientId: connection.clientId,
    ...(connection.tokenRequest !== undefined ? { tokenRequest: connection.tokenRequest } : {}),
    ...(connection.audience !== undefined ? { audience: connection.audience } : {}),
  }
}

/** "Staging", else "Staging (from team)", else "Staging (from team, 2)"… */
export function connectionName(name: string, source: string, isTaken: (name: string) => boolean): string {
  if (!isTaken(name)) return name
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ` (from ${source.slice(0, 80)})` : ` (from ${source.slice(0, 80)}, ${n})`
    const candidate = `${name.slice(0, 200 - suffix.length)}${suffix}`
    if (!isTaken(candidate)) return candidate
  }
}
