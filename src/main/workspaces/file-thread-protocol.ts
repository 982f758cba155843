import type { Judgment, QuerySet } from '../../shared/relevance/query-set'
import type { Workspace, WorkspaceLayout } from '../../shared/workspace/workspace-file'
import type { Rating } from './rating-index'
import type { SessionMeta } from './session-file'

/**
 * The messages between main and the workspace file thread (file-thread.ts,
 * file-worker.ts). A document crosses as its small top-level parts and its
 * sets; a set the other side already holds goes by its id, with the ratings
 * taken since (a few bytes each), and only a set it lacks goes in full, its
 * judgments in parts of JUDGMENTS_PER_PART, so that no one message holds
 * either thread long.
 */

export const JUDGMENTS_PER_PART = 10_000

export type SetOnWire = { ref: string; ratings: Rating[] } | { full: string; set: Omit<QuerySet, 'judgments'> }

export interface DocumentOnWire {
  /** Main's name for this document (a workspace object): the thread keeps the last text it made under it. */
  id: number
  top: Omit<Workspace, 'sets'>
  /** null: the document has no `sets` key. */
  sets: SetOnWire[] | null
  /** Sets the thread holds that main no longer needs. */
  drop: string[]
}

/**
 * Part of a set sent in full. From main, the judgments themselves; from the
 * thread (`reply`: part of the answer to that request), packed with
 * v8.serialize and transferred, because a port hands main every queued
 * message in one go: main unpacks them one at a time, yielding between.
 */
export type SetPart = { type: 'part'; set: string } & ({ judgments: Judgment[]; reply?: undefined } | { packed: Uint8Array; reply: number })

type Written = { document: DocumentOnWire; layout: WorkspaceLayout }

export type FileRequest = { type: 'request'; id: number } & (
  | { kind: 'open'; path: string; as: number }
  | { kind: 'import'; fileName: string; text: string; as: number }
  | { kind: 'read-session'; dataDir: string; as: number }
  | ({ kind: 'check'; previousBytes: number; name: string; as: number } & Written)
  | ({ kind: 'save'; path: string } & Written)
  | ({ kind: 'text' } & Written)
  | ({ kind: 'write-session'; dataDir: string; meta: SessionMeta } & Written)
)

export type FileRequestKind = FileRequest['kind']

/** The document as made on the thread: its layout, size and digest (the text stays there, but for a download). */
export interface DocumentFacts {
  layout: WorkspaceLayout
  bytes: number
  digest: string
}

export type FileReply = { type: 'reply'; id: number } & (
  | ({ ok: true; document?: DocumentOnWire; text?: string; session?: SessionMeta; problem?: string | null } & Partial<DocumentFacts>)
  | { ok: false; message: string; code?: string | undefined; write?: boolean }
)

/** Told when the thread starts the costly part of a request (serializing, parsing): a probe for tests that main is free meanwhile. */
export interface FileStage {
  type: 'stage'
  id: number
  kind: FileRequestKind
}
