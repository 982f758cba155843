import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { DraftSchema, WorkspaceBindingSchema, type Draft } from '../../shared/ipc/contract'
import { layoutOf, parseWorkspace, serializeWorkspace, type Workspace, type WorkspaceLayout } from '../../shared/workspace/workspace-file'
import { MAX_WORKSPACE_BYTES } from './workspace-files'

/**
 * `<dataDir>/session.json`: the open workspace as the last run left it, so a
 * restart (or a crash) gives back the same document, saved or not, its
 * bindings and the editor's draft. The document is kept as the very text a
 * save would write, and read back through the same checks as a file from
 * someone else, so it never holds a secret and never more than a file may.
 * It is read and written on the workspace file thread (file-worker.ts).
 */

export const SESSION_FILE = 'session.json'
/** A document at the file bound escaped in JSON (its quotes doubled: under twice its size), and a draft: far below this. */
const MAX_SESSION_BYTES = 4 * MAX_WORKSPACE_BYTES

const Id = z.string().min(1).max(200)

/** Where the document lives: a path a dialog gave (Electron), or only the name of the file it came from (browser host). */
export const FileRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('path'), path: z.string().min(1).max(4_096) }).strict(),
  z.object({ kind: z.literal('name'), name: z.string().min(1).max(255) }).strict(),
])

export const StoredBindingSchema = z
  .object({ fileConnectionId: Id, connectionId: Id, how: WorkspaceBindingSchema.shape.how.unwrap() })
  .strict()

const SessionFileSchema = z
  .object({
    version: z.literal(1),
    /** The document as a save would write it (serializeWorkspace). */
    document: z.string(),
    file: FileRefSchema.nullable(),
    /** sha256 of the text last opened or saved: the document is dirty when its own digest differs. */
    savedDigest: z.string().regex(/^[0-9a-f]{64}$/),
    bindings: z.array(StoredBindingSchema).max(1_000),
    draft: DraftSchema.nullable(),
    /** The document's key in the ratings journal, and the last journaled rating the document holds (workspace-session.ts). */
    journal: z.object({ key: z.string().uuid(), seq: z.number().int().min(0) }).strict().optional(),
  })
  .strict()

export type FileRef = z.infer<typeof FileRefSchema>
export type StoredBinding = z.infer<typeof StoredBindingSchema>

/** The open workspace as main keeps it: the document itself, and the facts of its text (which the file thread makes and keeps). */
export interface SessionState {
  workspace: Workspace
  /** The layout of the document's text (a compact file stays compact), its size in bytes and its sha256. */
  layout: WorkspaceLayout
  documentBytes: number
  documentDigest: string
  file: FileRef | null
  savedDigest: string
  bindings: StoredBinding[]
  draft: Draft | null
  /** The document's key in the ratings journal and the last rating of it the workspace holds; none until it is first written. */
  journal?: JournalMark | undefined
  /** Ratings taken since the document's text was made: the workspace is ahead of it, so it is dirty. */
  stale?: boolean | undefined
}

/** What session.json holds besides the document. */
export interface SessionMeta {
  file: FileRef | null
  savedDigest: string
  bindings: StoredBinding[]
  draft: Draft | null
  journal?: JournalMark | undefined
}

export interface JournalMark {
  key: string
  seq: number
}

export function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** session.json as read: the workspace with the text a save would write of it, and the rest. */
export type StoredSession = SessionMeta & { workspace: Workspace; document: string }

export type SessionRead = { state: StoredSession | null; problem: string | null }

/** The session of the last run; null when there was none; a problem when it could not be read (the file is set aside). */
export async function readSession(dataDir: string): Promise<SessionRead> {
  const path = join(dataDir, SESSION_FILE)
  let text: string
  try {
    const info = await fs.stat(path)
    if (info.size > MAX_SESSION_BYTES) return setAside(path, 'it is too large')
    text = await fs.readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: null, problem: null }
    return setAside(path, (error as Error).message)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return setAside(path, 'it is not valid JSON')
  }
  const parsed = SessionFileSchema.safeParse(json)
  if (!parsed.success) return setAside(path, 'it is not in the expected form')
  const read = parseWorkspace(parsed.data.document, SESSION_FILE)
  if (!read.ok) return setAside(path, read.message)
  const ids = new Set(read.workspace.connections.map((connection) => connection.id))
  const seen = new Set<string>()
  const bindings = parsed.data.bindings.filter((binding) => {
    const keep = ids.has(binding.fileConnectionId) && !seen.has(binding.fileConnectionId)
    seen.add(binding.fileConnectionId)
    return keep
  })
  // Written back as a save would write it, so that the dirty flag compares like with like.
  let document: string
  try {
    document = serializeWorkspace(read.workspace, layoutOf(parsed.data.document))
  } catch (error) {
    return setAside(path, (error as Error).message)
  }
  return {
    state: {
      workspace: read.workspace,
      document,
      file: parsed.data.file,
      savedDigest: parsed.data.savedDigest,
      bindings,
      draft: parsed.data.draft,
      journal: parsed.data.journal,
    },
    problem: null,
  }
}

async function setAside(path: string, why: string): Promise<SessionRead> {
  const aside = `${path}.bad`
  try {
    await fs.rename(path, aside)
  } catch {
    // Renaming failed too: the next write replaces it, and the notice still tells the user.
  }
  return {
    state: null,
    problem: `The workspace open in the last session could not be restored (${why.slice(0, 300)}); its session file was kept as ${aside}. Starting with an empty workspace.`,
  }
}

/** session.json's text: the document's text with what goes with it. */
export function sessionText(meta: SessionMeta, document: string): string {
  const file: z.infer<typeof SessionFileSchema> = {
    version: 1,
    document,
    file: meta.file,
    savedDigest: meta.savedDigest,
    bindings: meta.bindings,
    draft: meta.draft,
    ...(meta.journal ? { journal: meta.journal } : {}),
  }
  return `${JSON.stringify(file)}\n`
}

/**
 * Writes the session after each change, one write at a time: a change made
 * while a write runs is taken by the next one, and changes that come together
 * share it. Each caller's promise settles once a write that includes its
 * change is on disk. `writeNow` writes the session as it is when called (on
 * the file thread) and says what it took.
 */
export class SessionWriter<T> {
  private running: Promise<unknown> = Promise.resolve()
  private next: Promise<T> | null = null

  constructor(private readonly writeNow: () => Promise<T>) {}

  /** Resolves with what the write took, once it is on disk. */
  write(): Promise<T> {
    if (this.next) return this.next
    const next = this.running
      .catch(() => undefined)
      .then(() => {
        // From here on, a change needs a write of its own: this one takes the state as it is now.
        this.next = null
        return this.writeNow()
      })
    this.next = next
    this.running = next
    return next
  }
}
