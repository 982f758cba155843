import type { ConnectionRegistry } from '../../connections/connection-registry'
import type { FileDialogs } from '../../host/file-dialogs'
import type { Logger } from '../../logging/logger'
import type { AppInfo } from '../../../shared/ipc/contract'
import { ExplorerError } from '../../../shared/ipc/errors'
import type { DomainHandlers } from '../handler-table'

export interface WorkspaceHandlerDeps {
  dataDir: string
  host: AppInfo['host']
  dialogs: FileDialogs | null
  registry: ConnectionRegistry
  log: Logger
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

// PLACEHOLDER: replaced by the workspace session implementation.
export async function workspaceHandlers(_deps: WorkspaceHandlerDeps): Promise<DomainHandlers<WorkspaceChannel>> {
  const todo = async (): Promise<never> => {
    throw new ExplorerError('internal', 'Workspaces are not built yet.')
  }
  return {
    'workspace:current': todo,
    'workspace:new': todo,
    'workspace:open': todo,
    'workspace:import': todo,
    'workspace:save': todo,
    'workspace:save-query': todo,
    'workspace:rename-query': todo,
    'workspace:duplicate-query': todo,
    'workspace:delete-query': todo,
    'workspace:bind': todo,
    'workspace:create-connection': todo,
    'workspace:recent': todo,
    'workspace:draft': todo,
  }
}
