import type { ConnectionRegistry } from '../../connections/connection-registry'
import { chosenFileText, type FileKind } from '../../host/chosen-files'
import type { FileDialogs } from '../../host/file-dialogs'
import type { UploadTickets } from '../../host/upload-tickets'
import type { Logger } from '../../logging/logger'
import { WorkspaceSession } from '../../workspaces/workspace-session'
import { WORKSPACE_FILTERS } from '../../workspaces/workspace-file-io'
import { MAX_WORKSPACE_BYTES } from '../../workspaces/workspace-files'
import type { AppInfo } from '../../../shared/ipc/contract'
import { ExplorerError } from '../../../shared/ipc/errors'
import { withFacetDeclarations } from '../../../shared/workspace/facet-edits'
import type { DomainHandlers } from '../handler-table'

export interface WorkspaceHandlerDeps {
  dataDir: string
  host: AppInfo['host']
  /** Electron's native dialogs; null in the browser host, where the page picks files and takes downloads. */
  dialogs: FileDialogs | null
  /** The browser host's uploads, where the page sends a workspace file it opens; null in Electron. */
  uploads?: UploadTickets | null
  registry: ConnectionRegistry
  log: Logger
  /** Something the user must be told at start-up (AppInfo.notices). */
  notice?: (text: string) => void
  /** The session, when the app opened it for others to share (the test cases); else opened here. */
  session?: WorkspaceSession
}

type WorkspaceChannel =
  | 'workspace:current'
  | 'workspace:new'
  | 'workspace:open'
  | 'workspace:import'
  | 'workspace:save'
  | 'workspace:save-query'
  | 'workspace:rename-query'
  | 'workspace:duplicate-query'
  | 'workspace:delete-query'
  | 'workspace:bind'
  | 'workspace:create-connection'
  | 'workspace:recent'
  | 'workspace:draft'
  | 'workspace:set-facets'

/** A workspace file the page sent (the open dialog is Electron's own, in `workspace:open`): its own bound, 32 MiB. */
const WORKSPACE_FILE: FileKind = {
  title: 'Open workspace',
  filters: WORKSPACE_FILTERS,
  maxBytes: MAX_WORKSPACE_BYTES,
  noun: 'a workspace file',
  upload: 'workspace',
  overBound: 'it was not opened.',
}

/** The open workspace, restored from the last session before the first message is answered. */
export async function workspaceHandlers(deps: WorkspaceHandlerDeps): Promise<DomainHandlers<WorkspaceChannel>> {
  const session = deps.session ?? (await WorkspaceSession.open(deps))
  return {
    'workspace:current': () => session.current(),
    'workspace:new': () => session.newWorkspace(),
    'workspace:open': ({ recentId }) => session.open(recentId),
    'workspace:import': async ({ upload }) => {
      const file = await chosenFileText({ dialogs: null, uploads: deps.uploads ?? null }, upload, WORKSPACE_FILE)
      // Only a dialog answers null, and none is asked here.
      if (file === null) throw new ExplorerError('validation', 'No workspace file was chosen.')
      return session.import(file.fileName, file.text)
    },
    'workspace:save': ({ saveAs, name }) => session.save(saveAs, name),
    'workspace:save-query': (request) => session.saveQuery(request),
    'workspace:rename-query': ({ name, newName }) => session.renameQuery(name, newName),
    'workspace:duplicate-query': ({ name }) => session.duplicateQuery(name),
    'workspace:delete-query': ({ name }) => session.deleteQuery(name),
    'workspace:bind': ({ fileConnectionId, connectionId }) => session.bind(fileConnectionId, connectionId),
    'workspace:create-connection': ({ fileConnectionId, secret }) => session.createConnection(fileConnectionId, secret),
    'workspace:recent': async () => session.recent(),
    'workspace:draft': ({ draft }) => session.keepDraft(draft),
    // Kept on the file connection bound to the app connection (described in the file first if missing), so they are saved and shared.
    'workspace:set-facets': ({ connectionId, facets }) => session.edit((workspace, fileConnectionId) => withFacetDeclarations(workspace, fileConnectionId!, facets), connectionId),
  }
}
