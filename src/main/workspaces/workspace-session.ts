import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import type { ConnectionInput, ConnectionView, Draft, RecentWorkspace, WorkspaceBinding, WorkspaceView } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { QueryRequest } from '../../shared/query/model'
import { matchConnection, relationTo } from '../../shared/workspace/connection-match'
import {
  emptyWorkspace,
  parseWorkspace,
  serializeWorkspace,
  WORKSPACE_EXTENSION,
  type Workspace,
  type WorkspaceConnection,
} from '../../shared/workspace/workspace-file'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { StoredConnection } from '../connections/connection-store'
import type { FileDialogs, FileFilter } from '../host/file-dialogs'
import type { Logger } from '../logging/logger'
import { writeFileAtomic } from '../storage/atomic-file'
import { newCaseName, sameRanking, withEditedTestCase, withoutTestCase, withRecordedSnapshot, withTestCase } from '../test-cases/test-edits'
import type { Expectations, TestCase } from '../../shared/test-cases/test-case'
import { queryName, withConnection, withDuplicatedQuery, withoutQuery, withRenamedQuery, withSavedQuery } from './query-edits'
import { RecentWorkspaces } from './recent-workspaces'
import { digest, readSession, SessionWriter, type FileRef, type SessionState, type StoredBinding } from './session-file'
import { MAX_WORKSPACE_BYTES, readWorkspaceFile } from './workspace-files'
import { pickedFileName, UNTITLED_WORKSPACE, withWorkspaceExtension, workspaceName } from './workspace-names'
import { writeError } from './write-errors'

export const WORKSPACE_FILTERS: FileFilter[] = [
  { name: 'Query Explorer workspace', extensions: ['qxw.json'] },
  { name: 'JSON', extensions: ['json'] },
]

export interface WorkspaceSessionDeps {
  dataDir: string
  /** The native dialogs (Electron); null in the browser host, whose page picks files and takes downloads itself. */
  dialogs: FileDialogs | null
  registry: ConnectionRegistry
  log: Logger
  /** Tells the user something at start-up (a session that could not be restored). */
  notice?: (text: string) => void
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

export interface SaveReply {
  workspace: WorkspaceView | null
  download: { fileName: string; text: string } | null
}

/**
 * The open workspace document, owned by the main process: the renderer shows
 * it and asks for edits, and every edit is checked against the file format
 * before it is taken, so what is open can always be saved. Alongside it: where
 * it came from, whether it changed since, which app connection each of its
 * connections runs on, and the editor's draft. All of it is written to
 * session.json after each change, so a restart gives it back as it was.
 *
 * Paths: main reads and writes only paths that a native dialog gave or that
 * its own recent list holds; no channel carries one from the renderer.
 */
export class WorkspaceSession {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly writer: SessionWriter
  private readonly dialogs: FileDialogs | null
  private readonly registry: ConnectionRegistry
  private readonly log: Logger

  private constructor(
    deps: WorkspaceSessionDeps,
    private readonly recents: RecentWorkspaces,
    private state: SessionState,
  ) {
    this.dialogs = deps.dialogs
    this.registry = deps.registry
    this.log = deps.log
    this.writer = new SessionWriter(deps.dataDir, () => this.state)
  }

  static async open(deps: WorkspaceSessionDeps): Promise<WorkspaceSession> {
    const read = await readSession(deps.dataDir)
    if (read.problem) {
      deps.log.error(read.problem)
      deps.notice?.(read.problem)
    }
    const recents = await RecentWorkspaces.open(deps.dataDir, deps.log)
    return new WorkspaceSession(deps, recents, read.state ?? untitled(null))
  }

  current(): Promise<{ workspace: WorkspaceView; draft: Draft | null }> {
    return this.serial(async () => ({ workspace: this.view(), draft: this.state.draft }))
  }

  newWorkspace(): Promise<WorkspaceView> {
    return this.change(async () => {
      this.state = untitled(this.detachedDraft())
      return this.view()
    })
  }

  /** Electron: the open dialog, or a recent file. Browser host: a recent copy only (the page has the file picker). Null: cancelled. */
  async open(recentId?: string): Promise<WorkspaceView | null> {
    if (recentId !== undefined) return this.change(() => this.openRecent(recentId))
    if (!this.dialogs) {
      throw new ExplorerError('validation', 'Choose the workspace file with "Open workspace…": in the browser, the app can only read a file picked in the page.')
    }
    const path = await this.dialogs.chooseOpen({ title: 'Open workspace', filters: WORKSPACE_FILTERS })
    if (path === null) return null
    return this.change(() => this.openPath(path))
  }

  /** A file's text the page read (browser host's file picker), taken exactly as a file would be. */
  import(fileName: string, text: string): Promise<WorkspaceView> {
    return this.change(() => this.openText(pickedFileName(fileName), text))
  }

  async save(saveAs = false): Promise<SaveReply> {
    if (!this.dialogs) return this.change(() => this.download())
    const known = this.state.file?.kind === 'path' ? this.state.file.path : null
    let chosen: string | null = null
    if (saveAs || known === null) {
      const picked = await this.dialogs.chooseSave({ title: 'Save workspace', defaultName: `${this.name()}${WORKSPACE_EXTENSION}`, filters: WORKSPACE_FILTERS })
      if (picked === null) return { workspace: null, download: null }
      chosen = await this.withExtension(picked, known)
    }
    return this.change(async () => {
      // Without a dialog the file is the document's own, as it is now: another may have opened since the save was asked.
      const target = chosen ?? (this.state.file?.kind === 'path' ? this.state.file.path : null)
      if (target === null) throw new ExplorerError('validation', 'Nothing was saved: another workspace was opened meanwhile. Save again to choose where.')
      this.checkSaveSize()
      const { document, documentDigest } = this.state
      try {
        await writeFileAtomic(target, document)
      } catch (error) {
        throw writeError(target, error)
      }
      this.state = { ...this.state, file: { kind: 'path', path: target }, savedDigest: documentDigest }
      await this.remember(() => this.recents.rememberFile(target))
      return { workspace: this.view(), download: null }
    })
  }

  saveQuery(request: SaveQueryRequest): Promise<WorkspaceView> {
    return this.change(async () => {
      const app = this.registry.get(request.connectionId)
      const { workspace, bindings, fileConnectionId } = this.fileConnectionFor(app)
      const next = withSavedQuery(workspace, { ...request, connection: fileConnectionId })
      const draft = request.previousName === undefined ? this.state.draft : this.draftFollowing(request.previousName, queryName(request.name))
      await this.commit(next, { bindings, draft })
      return this.view()
    })
  }

  renameQuery(name: string, newName: string): Promise<WorkspaceView> {
    return this.change(async () => {
      const next = withRenamedQuery(this.state.workspace, name, newName)
      await this.commit(next, { draft: this.draftFollowing(name, queryName(newName)) })
      return this.view()
    })
  }

  duplicateQuery(name: string): Promise<{ workspace: WorkspaceView; name: string }> {
    return this.change(async () => {
      const copy = withDuplicatedQuery(this.state.workspace, name)
      await this.commit(copy.workspace)
      return { workspace: this.view(), name: copy.name }
    })
  }

  deleteQuery(name: string): Promise<WorkspaceView> {
    return this.change(async () => {
      const next = withoutQuery(this.state.workspace, name)
      await this.commit(next, { draft: this.draftFollowing(name, null) })
      return this.view()
    })
  }

  // --- test cases ---

  /** The document and what each of its connections runs on now (null: not connected): what a test run starts from. */
  testContext(): Promise<TestContext> {
    return this.serial(async () => ({
      workspace: this.state.workspace,
      boundTo: new Map(this.state.workspace.connections.map((connection) => [connection.id, this.bindingOf(connection.id)?.connectionId ?? null])),
    }))
  }

  /**
   * Adds a case made from the editor's query: one that names the saved query
   * the editor started from when that query asks the same thing on the same
   * connection, else one with the request of its own on the file connection
   * of the app connection it ran on (described in the file if missing, as
   * "Save query" does).
   */
  addTestCase(edit: AddTestCaseEdit): Promise<{ workspace: WorkspaceView; name: string }> {
    return this.change(async () => {
      const app = this.registry.get(edit.connectionId)
      const { workspace, bindings, fileConnectionId } = this.fileConnectionFor(app)
      const name = newCaseName(workspace, edit.name, edit.nameHint)
      const saved = edit.savedQuery === undefined ? undefined : workspace.queries.find((query) => query.name === edit.savedQuery)
      const testCase: TestCase =
        saved && saved.connection === fileConnectionId && sameRanking(saved.request, edit.request)
          ? { name, query: saved.name, expect: edit.expect }
          : { name, connection: fileConnectionId, request: edit.request, expect: edit.expect }
      // One commit: a refused case (a name clash) adds no connection description either.
      await this.commit(withTestCase(workspace, testCase), { bindings })
      return { workspace: this.view(), name }
    })
  }

  editTestCase(name: string, edit: { newName?: string | undefined; expect: Expectations }): Promise<WorkspaceView> {
    return this.change(async () => {
      await this.commit(withEditedTestCase(this.state.workspace, name, edit))
      return this.view()
    })
  }

  deleteTestCase(name: string): Promise<WorkspaceView> {
    return this.change(async () => {
      await this.commit(withoutTestCase(this.state.workspace, name))
      return this.view()
    })
  }

  /** Records the top keys of a run as the case's snapshot (the case as it is now: it may have been edited while it ran). */
  recordSnapshot(name: string, keys: readonly string[]): Promise<WorkspaceView> {
    return this.change(async () => {
      await this.commit(withRecordedSnapshot(this.state.workspace, name, keys))
      return this.view()
    })
  }

  /** Runs one of the file's connections on an app connection the user chose. */
  bind(fileConnectionId: string, connectionId: string): Promise<WorkspaceView> {
    return this.change(async () => {
      this.fileConnection(fileConnectionId)
      this.registry.get(connectionId)
      this.state = { ...this.state, bindings: withBinding(this.state.bindings, { fileConnectionId, connectionId, how: 'chosen' }) }
      return this.view()
    })
  }

  /**
   * Saves an app connection from the file's description (under a free name)
   * and binds it; the secret the user typed goes to the keychain through the
   * registry, bound to the description's auth origin, and nowhere else.
   */
  createConnection(fileConnectionId: string, secret?: string): Promise<{ workspace: WorkspaceView; connection: ConnectionView }> {
    return this.change(async () => {
      const described = this.fileConnection(fileConnectionId)
      if (secret && !described.clientId.trim()) {
        throw new ExplorerError('validation', `Client ID: the connection "${described.name}" has no client ID, so a client secret has nothing to belong to.`)
      }
      const taken = new Set((await this.registry.list()).map((connection) => connection.name))
      const input: ConnectionInput = {
        ...describedFields(described),
        name: connectionName(described.name, this.name(), (name) => taken.has(name)),
      }
      const saved = await this.registry.save(input)
      if (secret) {
        try {
          await this.registry.setSecret(saved.id, secret)
        } catch (error) {
          // A connection made to hold this secret would fail later for no visible reason without it.
          await this.registry.delete(saved.id).catch(() => false)
          throw error
        }
      }
      this.state = { ...this.state, bindings: withBinding(this.state.bindings, { fileConnectionId, connectionId: saved.id, how: 'created' }) }
      return { workspace: this.view(), connection: await this.registry.view(this.registry.get(saved.id)) }
    })
  }

  recent(): RecentWorkspace[] {
    return this.recents.list(this.dialogs ? 'file' : 'copy')
  }

  keepDraft(draft: Draft): Promise<{ kept: boolean }> {
    return this.change(async () => {
      this.state = { ...this.state, draft }
      return { kept: true }
    })
  }

  // --- opening and saving ---

  private async openPath(path: string): Promise<WorkspaceView> {
    const read = await readWorkspaceFile(path)
    if (!read.ok) throw new ExplorerError('validation', read.message)
    await this.adopt(read.workspace, { kind: 'path', path })
    await this.remember(() => this.recents.rememberFile(path))
    return this.view()
  }

  private async openText(fileName: string, text: string): Promise<WorkspaceView> {
    const bytes = Buffer.byteLength(text, 'utf8')
    if (bytes > MAX_WORKSPACE_BYTES) {
      throw new ExplorerError('validation', `"${fileName}" is too large to be a workspace file (${formatBytes(bytes)}; the most is ${formatBytes(MAX_WORKSPACE_BYTES)}).`)
    }
    const read = parseWorkspace(text, fileName)
    if (!read.ok) throw new ExplorerError('validation', read.message)
    await this.adopt(read.workspace, { kind: 'name', name: fileName })
    // The browser host cannot open the file again by itself: it keeps the text it read.
    if (!this.dialogs) await this.remember(() => this.recents.rememberCopy(fileName, text))
    return this.view()
  }

  private async openRecent(id: string): Promise<WorkspaceView> {
    const gone = (what: string) => new ExplorerError('not_found', `${what}; it was taken off the recent workspaces.`)
    if (this.dialogs) {
      const entry = this.recents.file(id)
      if (!entry) throw notListed()
      if (await missing(entry.path)) {
        await this.remember(() => this.recents.forget(id))
        throw gone(`"${basename(entry.path)}" is no longer in ${dirname(entry.path)}`)
      }
      return this.openPath(entry.path)
    }
    const entry = this.recents.copy(id)
    if (!entry) throw notListed()
    const text = await this.recents.readCopy(id)
    if (text === null) {
      await this.remember(() => this.recents.forget(id))
      throw gone(`The copy of "${entry.fileName}" the app kept is gone; open the file itself with "Open workspace…"`)
    }
    return this.openText(entry.fileName, text)
  }

  /** Replaces the document with one just read: clean, bound where the app has a fitting connection. */
  private async adopt(workspace: Workspace, file: FileRef): Promise<void> {
    const document = serializeWorkspace(workspace)
    const bindings = await this.matchAll(workspace)
    const documentDigest = digest(document)
    this.state = { workspace, document, documentDigest, file, savedDigest: documentDigest, bindings, draft: this.detachedDraft() }
  }

  private async matchAll(workspace: Workspace): Promise<StoredBinding[]> {
    const connections = await this.registry.list()
    const demo = connections.find((connection) => connection.builtIn)?.id
    return workspace.connections.flatMap((connection) => {
      const match = matchConnection(connection, connections, demo)
      return match ? [{ fileConnectionId: connection.id, ...match }] : []
    })
  }

  /** Browser host: the text to offer as a download; from then on it counts as saved under that name. */
  private async download(): Promise<SaveReply> {
    this.checkSaveSize()
    const { file, document, documentDigest } = this.state
    const fileName = withWorkspaceExtension(file === null ? `${UNTITLED_WORKSPACE}${WORKSPACE_EXTENSION}` : file.kind === 'name' ? file.name : basename(file.path))
    this.state = { ...this.state, file: { kind: 'name', name: fileName }, savedDigest: documentDigest }
    await this.remember(() => this.recents.rememberCopy(fileName, document))
    return { workspace: this.view(), download: { fileName, text: document } }
  }

  /**
   * The chosen path with the workspace extension. Adding it names another
   * file than the one the dialog asked about replacing, so an existing one is
   * not overwritten unasked.
   */
  private async withExtension(chosen: string, known: string | null): Promise<string> {
    const path = join(dirname(chosen), withWorkspaceExtension(basename(chosen)))
    if (path !== chosen && path !== known && !(await missing(path))) {
      throw new ExplorerError('validation', `"${basename(path)}" already exists in ${dirname(path)}. Save again and choose it to replace it, or choose another name.`)
    }
    return path
  }

  private checkSaveSize(): void {
    const bytes = Buffer.byteLength(this.state.document, 'utf8')
    if (bytes > MAX_WORKSPACE_BYTES) {
      throw new ExplorerError(
        'validation',
        `The workspace is ${formatBytes(bytes)}, more than the ${formatBytes(MAX_WORKSPACE_BYTES)} a workspace file may hold, so it could not be opened again; it was not saved. Delete some queries or notes, then save.`,
      )
    }
  }

  // --- the document ---

  /**
   * Takes an edited workspace if it can be saved as a file: it goes through
   * the file format's serializer (which refuses what a file may not hold) and
   * is read back, so what is open is exactly what a save writes and a restart reads.
   */
  private async commit(workspace: Workspace, also: Partial<Pick<SessionState, 'bindings' | 'draft'>> = {}): Promise<void> {
    let document: string
    try {
      document = serializeWorkspace(workspace)
    } catch (error) {
      throw new ExplorerError('validation', (error as Error).message)
    }
    const bytes = Buffer.byteLength(document, 'utf8')
    if (bytes > MAX_WORKSPACE_BYTES && bytes > Buffer.byteLength(this.state.document, 'utf8')) {
      throw new ExplorerError(
        'validation',
        `This change would make the workspace ${formatBytes(bytes)}, more than the ${formatBytes(MAX_WORKSPACE_BYTES)} a workspace file may hold; it was not made.`,
      )
    }
    const reread = parseWorkspace(document, this.name())
    if (!reread.ok) throw new ExplorerError('validation', reread.message)
    this.state = { ...this.state, ...also, workspace: reread.workspace, document, documentDigest: digest(document) }
  }

  private fileConnection(id: string): WorkspaceConnection {
    const connection = this.state.workspace.connections.find((each) => each.id === id)
    if (!connection) throw new ExplorerError('not_found', `The workspace has no connection "${id}".`)
    return connection
  }

  /** The binding of a file connection, if the app connection it names still exists. */
  private bindingOf(fileConnectionId: string): StoredBinding | null {
    const binding = this.state.bindings.find((each) => each.fileConnectionId === fileConnectionId)
    if (!binding) return null
    try {
      this.registry.get(binding.connectionId)
      return binding
    } catch {
      return null
    }
  }

  /**
   * The file connection a query saved on this app connection runs on: the one
   * bound to it; else one not bound yet that describes it; else a new one,
   * described from the profile (never its deadline, never a secret).
   */
  private fileConnectionFor(app: StoredConnection): { workspace: Workspace; bindings: StoredBinding[]; fileConnectionId: string } {
    const { workspace, bindings } = this.state
    const bound = workspace.connections.find((connection) => this.bindingOf(connection.id)?.connectionId === app.id)
    if (bound) return { workspace, bindings, fileConnectionId: bound.id }
    for (const connection of workspace.connections) {
      const how = this.bindingOf(connection.id) ? null : relationTo(connection, app)
      if (how) return { workspace, bindings: withBinding(bindings, { fileConnectionId: connection.id, connectionId: app.id, how }), fileConnectionId: connection.id }
    }
    const added = withConnection(workspace, describedFields(app))
    return {
      workspace: added.workspace,
      bindings: withBinding(bindings, { fileConnectionId: added.id, connectionId: app.id, how: 'same' }),
      fileConnectionId: added.id,
    }
  }

  /** The draft, when the saved query it started from is renamed (or deleted: null). */
  private draftFollowing(name: string, newName: string | null): Draft | null {
    const draft = this.state.draft
    return draft && draft.savedQuery === name ? { ...draft, savedQuery: newName } : draft
  }

  /** The draft stays when another document opens, but no longer stems from one of its saved queries. */
  private detachedDraft(): Draft | null {
    return this.state.draft && { ...this.state.draft, savedQuery: null }
  }

  private name(): string {
    return this.view().name
  }

  private view(): WorkspaceView {
    const { file, workspace } = this.state
    const fileName = file === null ? null : file.kind === 'path' ? basename(file.path) : file.name
    return {
      name: workspaceName(fileName),
      fileName,
      folder: this.dialogs && file?.kind === 'path' ? dirname(file.path) : null,
      saveTarget: !this.dialogs ? 'download' : file?.kind === 'path' ? 'file' : 'choose',
      dirty: this.state.documentDigest !== this.state.savedDigest,
      queries: workspace.queries,
      tests: workspace.tests ?? [],
      bindings: workspace.connections.map((connection): WorkspaceBinding => {
        const binding = this.bindingOf(connection.id)
        return { fileConnectionId: connection.id, connection, connectionId: binding?.connectionId ?? null, how: binding?.how ?? null }
      }),
    }
  }

  // --- persistence ---

  /** session.json is a convenience: a failed write is logged, and the edit it follows stands. */
  private async persist(): Promise<void> {
    await this.writer.write().catch((error: unknown) => this.log.error('the workspace session could not be written', error))
  }

  private async remember(work: () => Promise<void>): Promise<void> {
    await work().catch((error: unknown) => this.log.error('the recent workspaces could not be updated', error))
  }

  /**
   * A change to the session: made in turn, then written. The write waits
   * outside the turn, so changes that come together share one, and each
   * reply comes once its change is on disk.
   */
  private async change<T>(work: () => Promise<T>): Promise<T> {
    const result = await this.serial(work)
    await this.persist()
    return result
  }

  /** One change at a time, each on the result of the last: concurrent edits never interleave. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }
}

function untitled(draft: Draft | null): SessionState {
  const workspace = emptyWorkspace()
  const document = serializeWorkspace(workspace)
  const documentDigest = digest(document)
  return { workspace, document, documentDigest, file: null, savedDigest: documentDigest, bindings: [], draft }
}

function withBinding(bindings: StoredBinding[], binding: StoredBinding): StoredBinding[] {
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

function notListed(): ExplorerError {
  return new ExplorerError('not_found', 'That workspace is no longer in the recent list.')
}

async function missing(path: string): Promise<boolean> {
  try {
    await fs.stat(path)
    return false
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR'
  }
}
