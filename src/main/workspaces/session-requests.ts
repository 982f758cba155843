import type { Expectations } from '../../shared/test-cases/test-case'
import type { QueryRequest } from '../../shared/query/model'
import type { Workspace } from '../../shared/workspace/workspace-file'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { FileDialogs } from '../host/file-dialogs'
import type { Logger } from '../logging/logger'
import type { DataStore } from '../storage/data-store/data-store'

/** What the workspace session is made with and asked (workspace-session.ts). */

export interface WorkspaceSessionDeps {
  dataDir: string
  /** The native dialogs (Electron); null in the browser host, whose page picks files and takes downloads itself. */
  dialogs: FileDialogs | null
  registry: ConnectionRegistry
  log: Logger
  /** Tells the user something at start-up (a session that could not be restored). */
  notice?: (text: string) => void
  /** The data folder's database, where ratings are journaled; without it the session opens one of its own when it first needs it. */
  data?: DataStore | undefined
}

export interface SaveQueryRequest {
  name: string
  /** The app's connection the editor runs the query on. */
  connectionId: string
  request: QueryRequest
  notes?: string | undefined
  previousName?: string | undefined
  replace?: boolean | undefined
}

export interface AddTestCaseEdit {
  /** The name the user gave; else one derived from `nameHint`. */
  name?: string | undefined
  nameHint: string
  /** The app connection the editor's query ran on. */
  connectionId: string
  request: QueryRequest
  /** The saved query the editor started from, by name. */
  savedQuery?: string | undefined
  expect: Expectations
}

/** The open document as a test run sees it. */
export interface TestContext {
  workspace: Workspace
  /** Each file connection's app connection, by the file connection's id; null when it is not connected. */
  boundTo: ReadonlyMap<string, string | null>
}
