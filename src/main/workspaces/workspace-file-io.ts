import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Draft, RecentWorkspace, WorkspaceView } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import { WORKSPACE_EXTENSION, type Workspace } from '../../shared/workspace/workspace-file'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { FileDialogs, FileFilter } from '../host/file-dialogs'
import type { Logger } from '../logging/logger'
import { matchAll } from './connection-bindings'
import type { RecentWorkspaces } from './recent-workspaces'
import { FileWriteError, type ReadDocument, type WorkspaceFileThread } from './file-thread'
import type { DocumentFacts } from './file-thread-protocol'
import type { FileRef, SessionState } from './session-file'
import { pickedFileName, UNTITLED_WORKSPACE, withWorkspaceExtension, workspaceFileName } from './workspace-names'
import { writeError } from './write-errors'

export const WORKSPACE_FILTERS: FileFilter[] = [
  { name: 'Query Explorer workspace', extensions: ['qxw.json'] },
  { name: 'JSON', extensions: ['json'] },
]

export interface SaveReply {
  workspace: WorkspaceView | null
  download: { fileName: string; text: string } | null
}

/** What opening and saving need of the session: its state, its view, and its turn. */
export interface SessionAccess {
  /** The native dialogs (Electron); null in the browser host, whose page picks files and takes downloads itself. */
  dialogs: FileDialogs | null
  registry: ConnectionRegistry
  recents: RecentWorkspaces
  log: Logger
  /** Where files are read, checked, serialized and written (file-thread.ts). */
  thread: WorkspaceFileThread
  state(): SessionState
  setState(state: SessionState): void
  /** Another document is open now (opened, imported): what ran on the last one stops writing into it. */
  opened(): void
  /** The thread made the text of `workspace` (a save, a download): its facts, if it is still the open one. */
  tookText(workspace: Workspace, facts: DocumentFacts): void
  view(): WorkspaceView
  name(): string
  /** The draft as it stays when another document opens. */
  detachedDraft(): Draft | null
  /** A change to the session, made in turn, then written. */
  change<T>(work: () => Promise<T>): Promise<T>
}

/**
 * The open workspace's way to and from files: opening (the dialog, a recent
 * file, the text of a file the browser page read), saving (to the file, a
 * file the user chooses, or as a download in the browser host), and the
 * recent list that both keep.
 *
 * Paths: main reads and writes only paths that a native dialog gave or that
 * its own recent list holds; no channel carries one from the renderer.
 */
export class WorkspaceFileIo {
  constructor(private readonly session: SessionAccess) {}

  /** Electron: the open dialog, or a recent file. Browser host: a recent copy only (the page has the file picker). Null: cancelled. */
  async open(recentId?: string): Promise<WorkspaceView | null> {
    const { dialogs } = this.session
    if (recentId !== undefined) return this.session.change(() => this.openRecent(recentId))
    if (!dialogs) {
      throw new ExplorerError('validation', 'Choose the workspace file with "Open workspace…": in the browser, the app can only read a file picked in the page.')
    }
    const path = await dialogs.chooseOpen({ title: 'Open workspace', filters: WORKSPACE_FILTERS })
    if (path === null) return null
    return this.session.change(() => this.openPath(path))
  }

  /** A file's text the page read (browser host's file picker), taken exactly as a file would be. */
  import(fileName: string, text: string): Promise<WorkspaceView> {
    return this.session.change(() => this.openText(pickedFileName(fileName), text))
  }

  async save(saveAs = false, name?: string): Promise<SaveReply> {
    const { dialogs } = this.session
    if (!dialogs) return this.session.change(() => this.download(name))
    const file = this.session.state().file
    const known = file?.kind === 'path' ? file.path : null
    let chosen: string | null = null
    if (saveAs || known === null) {
      const picked = await dialogs.chooseSave({ title: 'Save workspace', defaultName: `${this.session.name()}${WORKSPACE_EXTENSION}`, filters: WORKSPACE_FILTERS })
      if (picked === null) return { workspace: null, download: null }
      chosen = await this.withExtension(picked, known)
    }
    return this.session.change(async () => {
      // Without a dialog the file is the document's own, as it is now: another may have opened since the save was asked.
      const now = this.session.state().file
      const target = chosen ?? (now?.kind === 'path' ? now.path : null)
      if (target === null) throw new ExplorerError('validation', 'Nothing was saved: another workspace was opened meanwhile. Save again to choose where.')
      // Serialized, held to the file bound and written (its mode kept) on the file thread: main only waits.
      const { workspace, layout } = this.session.state()
      let facts: DocumentFacts
      try {
        facts = await this.session.thread.save(target, workspace, layout)
      } catch (error) {
        throw error instanceof FileWriteError ? writeError(target, error) : error
      }
      this.session.tookText(workspace, facts)
      this.session.setState({ ...this.session.state(), file: { kind: 'path', path: target }, savedDigest: facts.digest })
      await this.remember(() => this.session.recents.rememberFile(target))
      return { workspace: this.session.view(), download: null }
    })
  }

  recent(): RecentWorkspace[] {
    return this.session.recents.list(this.session.dialogs ? 'file' : 'copy')
  }

  private async openPath(path: string): Promise<WorkspaceView> {
    // Read, parsed and checked on the file thread: main gets the checked document.
    const read = await this.session.thread.open(path)
    if (!read.ok) throw new ExplorerError('validation', read.message)
    await this.adopt(read, { kind: 'path', path })
    await this.remember(() => this.session.recents.rememberFile(path))
    return this.session.view()
  }

  private async openText(fileName: string, text: string): Promise<WorkspaceView> {
    const read = await this.session.thread.import(fileName, text)
    if (!read.ok) throw new ExplorerError('validation', read.message)
    await this.adopt(read, { kind: 'name', name: fileName })
    // The browser host cannot open the file again by itself: it keeps the text it read.
    if (!this.session.dialogs) await this.remember(() => this.session.recents.rememberCopy(fileName, text))
    return this.session.view()
  }

  private async openRecent(id: string): Promise<WorkspaceView> {
    const { recents } = this.session
    const gone = (what: string) => new ExplorerError('not_found', `${what}; it was taken off the recent workspaces.`)
    if (this.session.dialogs) {
      const entry = recents.file(id)
      if (!entry) throw notListed()
      if (await missing(entry.path)) {
        await this.remember(() => recents.forget(id))
        throw gone(`"${basename(entry.path)}" is no longer in ${dirname(entry.path)}`)
      }
      return this.openPath(entry.path)
    }
    const entry = recents.copy(id)
    if (!entry) throw notListed()
    const text = await recents.readCopy(id)
    if (text === null) {
      await this.remember(() => recents.forget(id))
      throw gone(`The copy of "${entry.fileName}" the app kept is gone; open the file itself with "Open workspace…"`)
    }
    return this.openText(entry.fileName, text)
  }

  /**
   * Replaces the document with one just read: clean, bound where the app has
   * a fitting connection, in a layout no larger than the file (documentFor, on the thread).
   */
  private async adopt(read: ReadDocument, file: FileRef): Promise<void> {
    const { workspace, layout, bytes, digest } = read
    const bindings = await matchAll(this.session.registry, workspace)
    this.session.setState({ workspace, layout, documentBytes: bytes, documentDigest: digest, file, savedDigest: digest, bindings, draft: this.session.detachedDraft() })
    this.session.opened()
  }

  /**
   * Browser host: the text to offer as a download, under the name the user
   * gave (checked first) or the one it has; from then on it counts as saved under that name.
   */
  private async download(name?: string): Promise<SaveReply> {
    const named = name === undefined ? null : workspaceFileName(name)
    const { file, workspace, layout } = this.session.state()
    // Made and held to the file bound on the file thread; the text comes to main only to be offered.
    const { text: document, ...facts } = await this.session.thread.text(workspace, layout)
    this.session.tookText(workspace, facts)
    const fileName = withWorkspaceExtension(named ?? (file === null ? `${UNTITLED_WORKSPACE}${WORKSPACE_EXTENSION}` : file.kind === 'name' ? file.name : basename(file.path)))
    this.session.setState({ ...this.session.state(), file: { kind: 'name', name: fileName }, savedDigest: facts.digest })
    await this.remember(() => this.session.recents.rememberCopy(fileName, document))
    return { workspace: this.session.view(), download: { fileName, text: document } }
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

  /** The recent list is a convenience: a failed update is logged, and what it follows stands. */
  private async remember(work: () => Promise<void>): Promise<void> {
    await work().catch((error: unknown) => this.session.log.error('the recent workspaces could not be updated', error))
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
