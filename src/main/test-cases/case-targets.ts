import type { RunTarget } from '../../shared/ipc/contract'
import type { ResolvedCase, TargetOverrides } from '../../shared/test-cases/case-request'
import { OWN_CONNECTIONS, targetText } from '../../shared/test-cases/target-text'
import type { Workspace } from '../../shared/workspace/workspace-file'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { QueryTarget } from '../http/query-runner'
import type { TestContext } from '../workspaces/workspace-session'

/** Where the cases of one run go, with the overrides they run with and the target in words. */
export interface CaseTargets {
  /** A case's (or a set template's) target, or why it cannot run (a sentence for the user). */
  targetOf(testCase: Pick<ResolvedCase, 'connection'>): QueryTarget | string
  overrides: TargetOverrides
  text: string
}

/**
 * With a target, every case runs on that app connection with its API,
 * config and version; without one, each runs on the app connection its file
 * connection is bound to, as it was saved. An unknown target connection is
 * refused at once (not_found); a case whose connection is not connected
 * says which one to connect.
 */
export function caseTargets(registry: ConnectionRegistry, context: TestContext, target?: RunTarget): CaseTargets {
  if (target) {
    const connection = registry.get(target.connectionId)
    const queryTarget = registry.target(connection.id)
    const overrides: TargetOverrides = { api: target.api, config: target.config, version: target.version }
    // A case moved to another connection asks that connection's workspace.
    return { targetOf: () => queryTarget, overrides: { ...overrides, workspace: connection.workspace }, text: targetText(connection.name, overrides) }
  }
  return { targetOf: (testCase) => ownTarget(registry, context.workspace, context.boundTo, testCase.connection), overrides: {}, text: OWN_CONNECTIONS }
}

function ownTarget(registry: ConnectionRegistry, workspace: Workspace, boundTo: TestContext['boundTo'], fileConnectionId: string | null): QueryTarget | string {
  const described = workspace.connections.find((connection) => connection.id === fileConnectionId)
  if (fileConnectionId === null || !described) return 'The case names no connection of the workspace to run on.'
  const connectionId = boundTo.get(fileConnectionId) ?? null
  if (connectionId === null) {
    return `The workspace's connection "${described.name}" is not connected: connect it to one of the app's connections (create it or choose one) to run this case, or run the tests on a chosen connection.`
  }
  try {
    return registry.target(connectionId)
  } catch (error) {
    return (error as Error).message
  }
}
