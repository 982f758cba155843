import type { ConnectionRegistry } from '../../connections/connection-registry'
import type { FileDialogs } from '../../host/file-dialogs'
import type { Logger } from '../../logging/logger'
import type { QueryRunner } from '../../query/query-runner'
import type { AppInfo } from '../../../shared/ipc/contract'
import { ExplorerError } from '../../../shared/ipc/errors'
import type { DomainHandlers } from '../handler-table'

export interface ExportHandlerDeps {
  dataDir: string
  host: AppInfo['host']
  dialogs: FileDialogs | null
  registry: ConnectionRegistry
  runner: QueryRunner
  log: Logger
}

// PLACEHOLDER: replaced by the export implementation.
export function exportHandlers(_deps: ExportHandlerDeps): DomainHandlers<'export:start' | 'export:status' | 'export:cancel'> {
  const todo = async (): Promise<never> => {
    throw new ExplorerError('internal', 'Export is not built yet.')
  }
  return { 'export:start': todo, 'export:status': todo, 'export:cancel': todo }
}
