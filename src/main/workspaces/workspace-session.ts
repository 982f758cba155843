import { randomUUID } from 'node:crypto'
import { basename, dirname } from 'node:path'
import { formatBytes } from '../../shared/byte-size'
import type { ConnectionView, Draft, RecentWorkspace, WorkspaceBinding, WorkspaceView } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import { setSummary } from '../../shared/relevance/set-summary'
import type { QueryRequest } from '../../shared/query/model'
import { queryName, withDuplicatedQuery, withoutQuery, withRenamedQuery, withSavedQuery } from '../../shared/workspace/query-edits'
import { newCaseName, sameRanking, withTestCase } from '../../shared/workspace/test-edits'
import { emptyWorkspace, layoutOf, parseWorkspace, serializeWorkspace, type Workspace } from '../../shared/workspace/workspace-file'
import type { Expectations, TestCase } from '../../shared/test-cases/test-case'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { FileDialogs } from '../host/file-dialogs'
import type { Logger } from '../logging/logger'
import { DataStore } from '../storage/data-store/data-store'
import { bindingOf, createDescribedConnection, fileConnection, fileConnectionFor, withBinding } from './connection-bindings'
import { RecentWorkspaces } from './recent-workspaces'
import { RatingIndex, type Rating } from './rating-index'
import { digest, readSession, SessionWriter, type JournalMark, type SessionState, type StoredBinding } from './session-file'
import { WorkspaceFileIo, type SaveReply } from './workspace-file-io'
import { MAX_WORKSPACE_BYTES } from './workspace-files'
import { workspaceName } from './workspace-names'

export { connectionName } from './connection-bindings'
export { WORKSPACE_FILTERS, type SaveReply } from './workspace-file-io'


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

/**
 * A pause in rating this long writes the session file: ratings are durable in
 * the journal before that, and the write serializes the whole document on
 * main (~0.9 s at 200,000 judgments, bench/rating.ts), so it waits for a real pause.
 */
const SESSION_FLUSH_MS = 30_000

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

/**
 * The open workspace document, owned by the main process: the renderer shows
 * it and asks for edits, and every edit is checked against the file format
 * before it is taken, so what is open can always be saved. Alongside it: where
 * it came from, whether it changed since (opening and saving: workspace-file-io.ts),
 * which app connection each of its connections runs on (connection-bindings.ts),
 * and the editor's draft. All of it is written to session.json after each
 * change, so a restart gives it back as it was; a rating is appended to the
 * data folder's ratings journal instead, and session.json follows after a
 * pause (rate(): a rating's cost does not grow with the set).
 */
export class WorkspaceSession {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly writer: SessionWriter
  private readonly files: WorkspaceFileIo
  private readonly dialogs: FileDialogs | null
  private readonly registry: ConnectionRegistry
  private readonly log: Logger
  private readonly dataDir: string
  private data: DataStore | null
  private readonly ownsData: boolean
  private ratings = new RatingIndex()
  /** The bytes a rating added to the document since it was last written, about: the file bound is kept without serializing. */
  private ratedBytes = 0
  private documentBytes = { document: '', bytes: 0 }
  private flushTimer: NodeJS.Timeout | null = null

  private constructor(
    deps: WorkspaceSessionDeps,
    recents: RecentWorkspaces,
    private state: SessionState,
  ) {
    this.dialogs = deps.dialogs
    this.registry = deps.registry
    this.log = deps.log
    this.dataDir = deps.dataDir
    this.data = deps.data ?? null
    this.ownsData = !deps.data
    this.writer = new SessionWriter(deps.dataDir, () => this.forWrite())
    this.files = new WorkspaceFileIo({
      dialogs: deps.dialogs,
      registry: deps.registry,
      recents,
      log: deps.log,
      state: () => this.synced(),
      setState: (state) => {
        this.state = state
      },
      view: () => this.view(),
      name: () => this.name(),
      detachedDraft: () => this.detachedDraft(),
      change: (work) => this.change(work),
    })
  }

  static async open(deps: WorkspaceSessionDeps): Promise<WorkspaceSession> {
    const read = await readSession(deps.dataDir)
    if (read.problem) {
      deps.log.error(read.problem)
      deps.notice?.(read.problem)
    }
    const recents = await RecentWorkspaces.open(deps.dataDir, deps.log)
    const session = new WorkspaceSession(deps, recents, read.state ?? untitled(null))
    await session.replayJournal(deps.notice)
    return session
  }

  /**
   * A rating of one judgment (`grade` null clears it): checked on its own,
   * taken into the document through the index by (query, item), and appended
   * to the ratings journal before the reply, so it survives a crash. The
   * session file is written after a pause in rating (SESSION_FLUSH_MS), from
   * the document in memory; until then the workspace is dirty.
   */
  rate(rating: Rating): Promise<WorkspaceView> {
    return this.serial(async () => {
      const before = this.state.workspace
      const { workspace, added } = this.ratings.rated(before, rating)
      if (workspace === before) return this.view()
      const bytes = this.bytesOf(this.state.document) + this.ratedBytes + added
      if (bytes > MAX_WORKSPACE_BYTES) {
        // The index moved with the refused document: it is made again from the one that stands.
        this.ratings = new RatingIndex()
        throw new ExplorerError(
          'validation',
          `This change would make the workspace ${formatBytes(bytes)}, more than the ${formatBytes(MAX_WORKSPACE_BYTES)} a workspace file may hold; it was not made.`,
        )
      }
      const journal = await this.journalMark()
      let seq: number | null = null
      try {
        seq = await this.dataStore().ratingAdd(journal.key, {
          set: rating.set,
          query: rating.query,
          item: rating.item,
          grade: rating.grade,
          by: rating.by ?? null,
          at: new Date().toISOString(),
        })
      } catch (error) {
        // A database that cannot be written (damaged, from a newer app) costs speed, never a rating: session.json is written now instead.
        this.log.error('the ratings journal could not be written; the session file is written for this rating', error)
      }
      this.state = { ...this.state, workspace, stale: true, journal: { key: journal.key, seq: seq ?? journal.seq } }
      this.ratedBytes += added
      if (seq === null) await this.persist()
      else this.scheduleFlush()
      return this.view()
    })
  }

  /** Writes what is pending (a rating's session write) and lets go of the database when the session opened it. */
  async close(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = null
    await this.serial(() => this.persist())
    if (this.ownsData) await this.data?.close()
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
   * Takes an edited workspace if it can be saved as a file: it goes through
   * the file format's serializer (which refuses what a file may not hold) and
   * is read back, so what is open is exactly what a save writes and a restart reads.
   */
  private async commit(workspace: Workspace, also: Partial<Pick<SessionState, 'bindings' | 'draft'>> = {}): Promise<void> {
    // Any ratings since the document was written are in `workspace`: the new document holds them.
    let document: string
    try {
      // In the layout the document has: a compact file stays compact (workspace-file.ts, WorkspaceLayout).
      document = serializeWorkspace(workspace, layoutOf(this.state.document))
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
    this.state = { ...this.state, ...also, workspace: reread.workspace, document, documentDigest: digest(document), stale: false }
    this.ratedBytes = 0
  }

  // --- ratings: the journal and the session file written later ---

  /**
   * The state with its document written from the workspace, when ratings
   * have changed the workspace since: what a save, a download and the session
   * file take. The document is serialized here, once for many ratings, not per rating.
   */
  private synced(): SessionState {
    if (!this.state.stale) return this.state
    const document = serializeWorkspace(this.state.workspace, layoutOf(this.state.document))
    this.state = { ...this.state, document, documentDigest: digest(document), stale: false }
    this.ratedBytes = 0
    return this.state
  }

  /** What session.json gets: the synced state, with the journal key it names (made for a document first written). */
  private forWrite(): SessionState {
    const state = this.synced()
    if (!state.journal) this.state = { ...state, journal: { key: randomUUID(), seq: 0 } }
    return this.state
  }

  /** The document's journal key, written to session.json before its first rating is journaled, so a restart finds its ratings. */
  private async journalMark(): Promise<JournalMark> {
    if (!this.state.journal) await this.persist()
    // A session file that could not be written is logged (persist): the rating still goes to the journal.
    if (!this.state.journal) this.state = { ...this.state, journal: { key: randomUUID(), seq: 0 } }
    return this.state.journal!
  }

  private scheduleFlush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null
      void this.serial(() => this.persist())
    }, SESSION_FLUSH_MS)
    // The ratings are in the journal already: a pending write never keeps a process alive.
    this.flushTimer.unref()
    // A pending write never keeps the process alive: the journal holds the ratings.
    this.flushTimer.unref()
  }

  /**
   * At start: the ratings journaled after the session file's document are
   * taken into it again (a crash came before the session was written), and
   * the workspace says it has unsaved changes. A rating that no longer
   * applies (its set or query gone) is left out, said in the log.
   */
  private async replayJournal(notice?: (text: string) => void): Promise<void> {
    const mark = this.state.journal
    if (!mark) return
    let entries
    try {
      entries = await this.dataStore().ratingsSince(mark.key, mark.seq)
    } catch (error) {
      const text = `Ratings made after the workspace session was last written could not be read back: ${(error as Error).message}`
      this.log.error(text)
      notice?.(text)
      return
    }
    if (entries.length === 0) return
    let workspace = this.state.workspace
    let skipped = 0
    for (const entry of entries) {
      try {
        workspace = this.ratings.rated(workspace, { set: entry.set, query: entry.query, item: entry.item, grade: entry.grade, by: entry.by ?? undefined }).workspace
      } catch {
        skipped++
      }
    }
    if (skipped > 0) this.log.error(`${skipped} journaled rating(s) no longer apply to the workspace and were left out`)
    this.log.info(`${entries.length - skipped} rating(s) made after the session was last written were taken back from the journal`)
    this.state = { ...this.state, workspace, stale: true, journal: { key: mark.key, seq: entries[entries.length - 1]!.seq } }
  }

  private dataStore(): DataStore {
    this.data ??= new DataStore(this.dataDir)
    return this.data
  }

  private bytesOf(document: string): number {
    if (this.documentBytes.document !== document) this.documentBytes = { document, bytes: Buffer.byteLength(document, 'utf8') }
    return this.documentBytes.bytes
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
    const { file, workspace } = this.state
    const fileName = file === null ? null : file.kind === 'path' ? basename(file.path) : file.name
    return {
      name: workspaceName(fileName),
      fileName,
      folder: this.dialogs && file?.kind === 'path' ? dirname(file.path) : null,
      saveTarget: !this.dialogs ? 'download' : file?.kind === 'path' ? 'file' : 'choose',
      dirty: this.state.stale === true || this.state.documentDigest !== this.state.savedDigest,
      queries: workspace.queries,
      tests: workspace.tests ?? [],
      sets: (workspace.sets ?? []).map(setSummary),
      bindings: workspace.connections.map((connection): WorkspaceBinding => {
        const binding = this.bindingOf(connection.id)
        return { fileConnectionId: connection.id, connection, connectionId: binding?.connectionId ?? null, how: binding?.how ?? null }
      }),
    }
  }

  // --- persistence ---

  /**
   * session.json is a convenience: a failed write is logged, and the edit it
   * follows stands. Once it holds the document's ratings, the journal lets them go.
   */
  private async persist(): Promise<void> {
    let written: JournalMark | undefined
    await this.writer.write().then(
      (state) => {
        written = state.journal
      },
      (error: unknown) => this.log.error('the workspace session could not be written', error),
    )
    if (written && written.seq > 0 && this.data) {
      await this.data.ratingsTrim(written.key, written.seq).catch((error: unknown) => this.log.error('the ratings journal could not be trimmed', error))
    }
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
