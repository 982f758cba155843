import { z } from 'zod'
import { QueryRequestSchema } from '../query/model'
import { JudgeSchema } from '../relevance/llm-judge'
import { SetSummarySchema } from '../relevance/set-summary'
import { TestCaseSchema } from '../test-cases/test-case'
import { SavedQuerySchema, WorkspaceConnectionSchema } from '../workspace/workspace-file'

/** The open workspace as the window sees it (main owns the document), and the editor's draft. */

const Id = z.string().min(1).max(200)
const QueryName = z.string().min(1).max(200)

/** How one of the file's connections runs here. */
export const WorkspaceBindingSchema = z.object({
  /** The connection's `id` inside the file. */
  fileConnectionId: Id,
  /** The file's description of it (never a secret). */
  connection: WorkspaceConnectionSchema,
  /** The app's connection it runs on; null until the user creates or chooses one. */
  connectionId: Id.nullable(),
  /**
   * same: an app connection with the same URLs, workspace and client ID;
   * moved: the same but for the URLs' host or port (the demo on another port);
   * chosen / created: what the user did when asked.
   */
  how: z.enum(['same', 'moved', 'chosen', 'created']).nullable(),
})

/** The open workspace as main holds it: main owns the document, the renderer shows it and asks for edits. */
export const WorkspaceViewSchema = z.object({
  /** The file name without `.qxw.json`, or "Untitled workspace". */
  name: z.string(),
  /** The file it was opened from or saved to last; null when never saved. */
  fileName: z.string().nullable(),
  /** The folder, only to show the user where it is (Electron); null in the browser host. */
  folder: z.string().nullable(),
  /**
   * Where "Save workspace" writes: `file` (the file itself, Electron),
   * `choose` (asks where first: never saved, or Save as), `download` (the
   * browser host, which cannot write to a file the user picked: it offers the
   * text as a download).
   */
  saveTarget: z.enum(['file', 'choose', 'download']),
  /** The document differs from what was last opened or saved. */
  dirty: z.boolean(),
  queries: z.array(SavedQuerySchema),
  /** The workspace's test cases, as the file keeps them. */
  tests: z.array(TestCaseSchema),
  /** The workspace's query sets, without their queries and judgments (`sets:get`). */
  sets: z.array(SetSummarySchema),
  /** The workspace's LLM judges, as the file keeps them (never a key). */
  judges: z.array(JudgeSchema),
  /** Where each judge's calls go here, by name, where that is not its base URL as written: moved with the Demo's binding. */
  judgeUrls: z.record(z.string(), z.string()).optional(),
  bindings: z.array(WorkspaceBindingSchema),
})

/** The editor's state that survives a restart: the chain being edited, saved or not. */
export const DraftSchema = z.object({
  connectionId: Id.nullable(),
  request: QueryRequestSchema,
  /** The saved query the editor started from, by name; null for a new one. */
  savedQuery: QueryName.nullable(),
})

export const RecentWorkspaceSchema = z.object({
  id: Id,
  name: z.string(),
  fileName: z.string(),
  /** Shown only; opening goes by `id`. Null in the browser host. */
  folder: z.string().nullable(),
  /** ISO time it was last opened or saved. */
  at: z.string(),
  /** file: reopens the file itself (Electron); copy: the copy kept when it was last opened or saved (browser host). */
  kind: z.enum(['file', 'copy']),
})
