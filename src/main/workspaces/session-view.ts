import { basename, dirname } from 'node:path'
import type { Draft, WorkspaceBinding, WorkspaceView } from '../../shared/ipc/contract'
import { setSummary } from '../../shared/relevance/set-summary'
import { emptyWorkspace, serializeWorkspace } from '../../shared/workspace/workspace-file'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { FileDialogs } from '../host/file-dialogs'
import type { Judge } from '../../shared/relevance/llm-judge'
import { judgeBaseUrlHere } from '../judges/judge-start'
import { bindingOf } from './connection-bindings'
import { digest, type SessionState } from './session-file'
import { workspaceName } from './workspace-names'

/** What the window is shown of the open workspace: its name, where it lives, whether it is saved, its contents and bindings. */
export function sessionView(state: SessionState, dialogs: FileDialogs | null, registry: ConnectionRegistry): WorkspaceView {
  const { file, workspace } = state
  const bindings = workspace.connections.map((connection): WorkspaceBinding => {
    const binding = bindingOf(registry, state.bindings, connection.id)
    return { fileConnectionId: connection.id, connection, connectionId: binding?.connectionId ?? null, how: binding?.how ?? null }
  })
  const judgeUrls = movedJudges(registry, bindings, workspace.judges ?? [])
  const fileName = file === null ? null : file.kind === 'path' ? basename(file.path) : file.name
  return {
    name: workspaceName(fileName),
    fileName,
    folder: dialogs && file?.kind === 'path' ? dirname(file.path) : null,
    saveTarget: !dialogs ? 'download' : file?.kind === 'path' ? 'file' : 'choose',
    dirty: state.stale === true || state.documentDigest !== state.savedDigest,
    queries: workspace.queries,
    tests: workspace.tests ?? [],
    sets: (workspace.sets ?? []).map(setSummary),
    judges: workspace.judges ?? [],
    bindings,
    ...(judgeUrls ? { judgeUrls } : {}),
  }
}

/** The judges whose calls go elsewhere than their base URL as written (judge-base-url.ts: moved with the Demo's binding), by name. */
function movedJudges(registry: ConnectionRegistry, bindings: readonly WorkspaceBinding[], judges: readonly Judge[]): Record<string, string> | null {
  const moved = judges.flatMap((judge) => {
    const here = judgeBaseUrlHere(registry, bindings, judge)
    return here === judge.baseUrl ? [] : [[judge.name, here] as const]
  })
  return moved.length > 0 ? Object.fromEntries(moved) : null
}

/** A new, empty workspace, never saved (its text is a few bytes: made here). */
export function untitled(draft: Draft | null): SessionState {
  const workspace = emptyWorkspace()
  const document = serializeWorkspace(workspace)
  const documentDigest = digest(document)
  return { workspace, layout: 'readable', documentBytes: Buffer.byteLength(document, 'utf8'), documentDigest, file: null, savedDigest: documentDigest, bindings: [], draft }
}
