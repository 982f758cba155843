import type { ConnectionView, Draft, RecentWorkspace, WorkspaceView } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import { queryName, withDuplicatedQuery, withoutQuery, withRenamedQuery, withSavedQuery } from '../../shared/workspace/query-edits'
import { newCaseName, sameRanking, withTestCase } from '../../shared/workspace/test-edits'
import type { Workspace } from '../../shared/workspace/workspace-file'
import type { TestCase } from '../../shared/test-cases/test-case'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { FileDialogs } from '../host/file-dialogs'
import type { Logger } from '../logging/logger'
import { bindingOf, createDescribedConnection, fileConnection, fileConnectionFor, withBinding } from './connection-bindings'
import type { DocumentFacts } from './file-thread-protocol'
import { WorkspaceFileThread } from './file-thread'
import type { Rating } from './rating-index'
import { RecentWorkspaces } from './recent-workspaces'
import { SessionWriter, type JournalMark, type SessionState, type StoredBinding } from './session-file'
import { SessionRatings } from './session-ratings'
import { sessionView, untitled } from './session-view'
import { WorkspaceFileIo, type SaveReply } from './workspace-file-io'
import type { AddTestCaseEdit, SaveQueryRequest, TestContext, WorkspaceSessionDeps } from './session-requests'
import { WriteQueue } from '../storage/write-queue'

export { connectionName } from './connection-bindings'
export { WORKSPACE_FILTERS, type SaveReply } from './workspace-file-io'
export type { AddTestCaseEdit, SaveQueryRequest, TestContext, WorkspaceSessionDeps } from './session-requests'

/**
 * The open workspace document, owned by the main process: the renderer shows
 * it and asks for edits, and every edit is checked against the file format
 * before it is taken, so what is open can always be saved. Alongside it: where
 * it came from, whether it changed since (opening and saving: workspace-file-io.ts),
 * which app connection each of its connections runs on (connection-bindings.ts),
 * and the editor's draft. All of it is written to session.json after each
 * change, so a restart gives it back as it was; a rating is appended to the
 * data folder's ratings journal instead, and session.json follows after a
 * pause (session-ratings.ts). The document's text is made, checked, read and
 * written on the workspace file thread (file-thread.ts), never on main.
 */
export class WorkspaceSession {
  private readonly queue = new WriteQueue()
  private readonly writer: SessionWriter<JournalMark | undefined>
  private readonly files: WorkspaceFileIo
  private openings = 0
  private readonly openedListeners = new Set<() => void>()
  private readonly ratings: SessionRatings
  private readonly dialogs: FileDialogs | null
  private readonly registry: ConnectionRegistry
  private readonly log: Logger
  private readonly dataDir: string

  private constructor(
    deps: WorkspaceSessionDeps,
    recents: RecentWorkspaces,
    private readonly thread: WorkspaceFileThread,
    private state: SessionState,
  ) {
    this.dialogs = deps.dialogs
    this.registry = deps.registry
    this.log = deps.log
    this.dataDir = deps.dataDir
    this.writer = new SessionWriter(() => this.writeSession())
    const setState = (state: SessionState) => {
      this.state = state
    }
    this.ratings = new SessionRatings(
      { dataDir: deps.dataDir, log: deps.log, thread, state: () => this.state, setState, persist: () => this.persist(), serial: (work) => this.serial(work) },
      deps.data,
    )
    this.files = new WorkspaceFileIo({
      dialogs: deps.dialogs,
      registry: deps.registry,
      recents,
      log: deps.log,
      thread,
      state: () => this.state,
      setState,
      opened: () => this.opened(),
      tookText: (workspace, facts) => this.tookText(workspace, facts),
      view: () => this.view(),
      name: () => this.name(),
      detachedDraft: () => this.detachedDraft(),
      change: (work) => this.change(work),
    })
  }

  static async open(deps: WorkspaceSessionDeps): Promise<WorkspaceSession> {
    const thread = new WorkspaceFileThread()
    const read = await thread.readSession(deps.dataDir).catch((error: unknown) => ({
      state: null,
      problem: `The workspace open in the last session could not be restored (${(error as Error).message}). Starting with an empty workspace.`,
    }))
    if (read.problem) {
      deps.log.error(read.problem)
      deps.notice?.(read.problem)
    }
    const recents = await RecentWorkspaces.open(deps.dataDir, deps.log)
    const stored = read.state
    const state: SessionState = stored
      ? {
          workspace: stored.workspace,
          layout: stored.layout,
          documentBytes: stored.bytes,
          documentDigest: stored.digest,
          file: stored.file,
          savedDigest: stored.savedDigest,
          bindings: stored.bindings,
          draft: stored.draft,
          journal: stored.journal,
        }
      : untitled(null)
    const session = new WorkspaceSession(deps, recents, thread, state)
    await session.ratings.replay(deps.notice)
    return session
  }

  /**
   * A rating of one judgment (`grade` null clears it), taken through the
   * index by (query, item) and journaled before the reply (session-ratings.ts);
   * until session.json is written after a pause, the workspace is dirty.
   */
  rate(rating: Rating): Promise<WorkspaceView> {
    return this.serial(async () => {
      await this.ratings.rate(rating)
      return this.view()
    })
  }

  /**
   * Many ratings of one set at once (an LLM judge's grades), each checked on
   * its own and journaled together before the reply (session-ratings.ts):
   * what each rating's error was, at its place (null: taken).
   */
  rateMany(setName: string, ratings: readonly Rating[], opening?: number): Promise<(string | null)[]> {
    return this.serial(async () => {
      // A run that started on a document no longer open writes nothing into the one that is: its set may share the name.
      if (opening !== undefined && opening !== this.openings) return ratings.map(() => 'The workspace this run started in is no longer open: the grade was not written.')
      return this.ratings.rateMany(setName, ratings)
    })
  }

  /** Writes what is pending (a rating's session write), lets go of the database when the session opened it, and stops the file thread. */
  async close(): Promise<void> {
    this.ratings.stopFlush()
    await this.serial(() => this.persist())
    await this.ratings.close()
    await this.thread.close()
  }

  current(): Promise<{ workspace: WorkspaceView; draft: Draft | null }> {
    return this.serial(async () => ({ workspace: this.view(), draft: this.state.draft }))
  }

  newWorkspace(): Promise<WorkspaceView> {
    return this.change(async () => {
      this.state = untitled(this.detachedDraft())
      this.opened()
      return this.view()
    })
  }

  /** Which document is open, as a count of the documents opened in this session: a judging run writes only into the one it started in. */
  opening(): number {
    return this.openings
  }

  /** Calls `listener` whenever another document opens (new, opened, imported). */
  onOpened(listener: () => void): void {
    this.openedListeners.add(listener)
  }

  private opened(): void {
    this.openings++
    for (const listener of this.openedListeners) listener()
  }

  /** Electron: the open dialog, or a recent file. Browser host: a recent copy only (the page has the file picker). Null: cancelled. */
  open(recentId?: string): Promise<WorkspaceView | null> {
    return this.files.open(recentId)
  }

  /** A file's text the page read (browser host's file picker), taken exactly as a file would be. */
  import(fileName: string, text: string): Promise<WorkspaceView> {
    return this.files.import(fileName, text)
  }

  /** `name`: the browser host's download is saved under it (the page asks one for a workspace never saved). */
  save(saveAs = false, name?: string): Promise<SaveReply> {
    return this.files.save(saveAs, name)
  }

  recent(): RecentWorkspace[] {
    return this.files.recent()
  }

  saveQuery(request: SaveQueryRequest): Promise<WorkspaceView> {
    return this.change(async () => {
      const app = this.registry.get(request.connectionId)
      const { workspace, bindings, fileConnectionId } = fileConnectionFor(this.registry, this.state, app)
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
   * Adds a case made from the editor's query: one that runs the saved query
   * the editor started from, and is named after it, when that query asks the
   * same thing on the same connection, else one with the request of its own on the file connection
   * of the app connection it ran on (described in the file if missing, as
   * "Save query" does).
   */
  addTestCase(edit: AddTestCaseEdit): Promise<{ workspace: WorkspaceView; name: string }> {
    return this.change(async () => {
      const app = this.registry.get(edit.connectionId)
      const { workspace, bindings, fileConnectionId } = fileConnectionFor(this.registry, this.state, app)
      const saved = edit.savedQuery === undefined ? undefined : workspace.queries.find((query) => query.name === edit.savedQuery)
      const runsSaved = saved !== undefined && saved.connection === fileConnectionId && sameRanking(saved.request, edit.request)
      // A case that runs a saved query is named after it; one with a query of its own, after what it searches for.
      const name = newCaseName(workspace, edit.name, runsSaved ? saved.name : edit.nameHint)
      const testCase: TestCase = runsSaved
        ? { name, query: saved.name, expect: edit.expect }
        : { name, connection: fileConnectionId, request: edit.request, expect: edit.expect }
      // One commit: a refused case (a name clash) adds no connection description either.
      await this.commit(withTestCase(workspace, testCase), { bindings })
      return { workspace: this.view(), name }
    })
  }

  // --- query sets and other edits made by pure functions ---

  /**
   * An edit of the document by a pure function of it (the query sets'
   * edits, relevance/set-edits.ts), taken only if the file format takes it.
   * With `connectionId`, the function also gets the file connection of that
   * app connection (described in the file first if missing, as "Save query" does).
   */
  edit(change: (workspace: Workspace, fileConnectionId: string | null) => Workspace, connectionId?: string): Promise<WorkspaceView> {
    return this.change(async () => {
      if (connectionId === undefined) {
        await this.commit(change(this.state.workspace, null))
      } else {
        const { workspace, bindings, fileConnectionId } = fileConnectionFor(this.registry, this.state, this.registry.get(connectionId))
        await this.commit(change(workspace, fileConnectionId), { bindings })
      }
      return this.view()
    })
  }

  // --- connection bindings ---

  /** Runs one of the file's connections on an app connection the user chose. */
  bind(fileConnectionId: string, connectionId: string): Promise<WorkspaceView> {
    return this.change(async () => {
      fileConnection(this.state.workspace, fileConnectionId)
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
      const described = fileConnection(this.state.workspace, fileConnectionId)
      const saved = await createDescribedConnection(this.registry, described, this.name(), secret)
      this.state = { ...this.state, bindings: withBinding(this.state.bindings, { fileConnectionId, connectionId: saved.id, how: 'created' }) }
      return { workspace: this.view(), connection: await this.registry.view(this.registry.get(saved.id)) }
    })
  }

  keepDraft(draft: Draft): Promise<{ kept: boolean }> {
    return this.change(async () => {
      this.state = { ...this.state, draft }
      return { kept: true }
    })
  }

  // --- the document ---

  /**
   * Takes an edited workspace if it can be saved as a file: on the file
   * thread, it goes through the file format's serializer (which refuses what
   * a file may not hold) and is read back, so what is open is exactly what a
   * save writes and a restart reads.
   */
  private async commit(workspace: Workspace, also: Partial<Pick<SessionState, 'bindings' | 'draft'>> = {}): Promise<void> {
    // Any ratings since the document's text was made are in `workspace`; in the layout the document has (a compact file stays compact).
    const checked = await this.thread.check(workspace, this.state.layout, this.state.documentBytes, this.name())
    if (!checked.ok) throw new ExplorerError('validation', checked.message)
    const { workspace: reread, layout, bytes, digest } = checked
    this.state = { ...this.state, ...also, workspace: reread, layout, documentBytes: bytes, documentDigest: digest, stale: false }
    this.ratings.madeText()
  }

  /** The file thread made the text of `workspace`: if it is still the open document, its facts are now known (a rating's staleness ends). */
  private tookText(workspace: Workspace, facts: DocumentFacts): void {
    if (this.state.workspace !== workspace) return
    this.state = { ...this.state, layout: facts.layout, documentBytes: facts.bytes, documentDigest: facts.digest, stale: false }
    this.ratings.madeText()
  }

  /** The binding of a file connection, if the app connection it names still exists. */
  private bindingOf(fileConnectionId: string): StoredBinding | null {
    return bindingOf(this.registry, this.state.bindings, fileConnectionId)
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
    return sessionView(this.state, this.dialogs, this.registry)
  }

  // --- persistence ---

  /**
   * session.json is a convenience: a failed write is logged, and the edit it
   * follows stands. Once it holds the document's ratings, the journal lets them go.
   */
  private async persist(): Promise<void> {
    let written: JournalMark | undefined
    await this.writer.write().then(
      (mark) => {
        written = mark
      },
      (error: unknown) => this.log.error('the workspace session could not be written', error),
    )
    await this.ratings.written(written)
  }

  /** session.json as the session is now, written on the file thread; the journal mark it names. */
  private async writeSession(): Promise<JournalMark | undefined> {
    // A document first written gets its journal key here, so a restart finds its ratings.
    this.state = this.ratings.withJournalKey(this.state)
    const { workspace, layout, file, savedDigest, bindings, draft, journal } = this.state
    const facts = await this.thread.writeSession(this.dataDir, { file, savedDigest, bindings, draft, journal }, workspace, layout)
    this.tookText(workspace, facts)
    return journal
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
    return this.queue.run(work)
  }
}
