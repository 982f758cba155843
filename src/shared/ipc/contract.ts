import { z } from 'zod'
import { ApiDescriptionSchema, ApiLearningSchema } from '../api-description'
import { CompareSideSchema, ComparisonSchema, type CompareSide, type Comparison } from '../compare/comparison'
import { RunTargetSchema, type RunTarget } from '../compare/compare-targets'
import { ConnectionInputSchema, type ConnectionInput } from '../connections/connection-input'
import {
  ConnectionCheckResultSchema,
  ConnectionCheckSchema,
  ConnectionTestSchema,
  ConnectionViewSchema,
  type ConnectionCheck,
  type ConnectionCheckResult,
  type ConnectionTest,
  type ConnectionView,
} from '../connections/connection-view'
import { MAX_EXPORT_COLUMNS } from '../export/columns'
import { EXPORT_FORMATS, MAX_EXPORT_ROWS, type ExportFormat } from '../export/plan'
import { HistoryEntrySchema, type HistoryEntry } from '../history/history-entry'
import { FacetDeclarationSchema, MAX_FACET_DECLARATIONS } from '../query/facet-declaration'
import { QueryRequestSchema } from '../query/model'
import { QueryReplySchema, TimingsSchema, type QueryReply, type Timings } from '../query/query-reply'
import { CaseReportSchema } from '../test-cases/report'
import { ExpectationsSchema, TestCaseSchema } from '../test-cases/test-case'
import { SavedQuerySchema, WorkspaceConnectionSchema } from '../workspace/workspace-file'
import { ViewPrefsPatchSchema, ViewPrefsSchema } from '../view-prefs'
import type { Channel } from './channels'
import { relevanceContract, type EvalRunStatus, type SetForm } from './relevance-contract'
import { experimentContract, type ExperimentRunStatus } from './experiment-contract'
import { judgeContract } from './judge-contract'
import { DraftSchema, RecentWorkspaceSchema, WorkspaceBindingSchema, WorkspaceViewSchema } from './workspace-view'
import { IpcErrorSchema } from './errors'
import { JobStatusSchema, jobChannels } from './job-channels'
import { UploadIdSchema } from './uploads'

/**
 * The one contract between renderer and main: a request and a reply schema per
 * channel. Main validates every incoming message against it; the preload
 * exposes exactly these channels; the renderer's client is typed from it.
 * Strict objects and bounded strings: a malformed or oversized message is a
 * validation error, never a crash.
 */

export { ConnectionCheckResultSchema, ConnectionCheckSchema, ConnectionInputSchema, ConnectionTestSchema, ConnectionViewSchema }
// Defined with their domain (compare, export, history, query, test cases); re-exported for the channels' users.
export { CaseReportSchema, CompareSideSchema, ComparisonSchema, EXPORT_FORMATS, HistoryEntrySchema, MAX_EXPORT_ROWS, QueryReplySchema, RunTargetSchema, TimingsSchema }
export type { CompareSide, Comparison, ExportFormat, HistoryEntry, QueryReply, RunTarget, Timings }

const Id = z.string().min(1).max(200)

/**
 * What `query:run` gives back: the answer, and the History entry the run
 * made or added a page to (absent when left out of History or not written),
 * which the window's History shows without asking `history:list` for it.
 */
export const QueryRunReplySchema = QueryReplySchema.extend({ historyEntry: HistoryEntrySchema.optional() })

export const KeychainInfoSchema = z.object({
  /** `os`: the OS keychain; `memory`: no keychain answered, secrets live for this run only. */
  kind: z.enum(['os', 'memory']),
  detail: z.string(),
})

export const AppInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'browser']),
  keychain: KeychainInfoSchema,
  /** The embedded demo service, when this launch started one. */
  demo: z.object({ connectionId: Id, workspace: z.string() }).nullable(),
  /** The connection last chosen (`connections:use`), if it still exists: the app reopens on it. */
  lastConnectionId: Id.nullable(),
  /** Things the user must be told at start-up (e.g. a settings file set aside). */
  notices: z.array(z.string()),
})

const SecretText = z.string().min(1).max(4_096)

const QueryName = z.string().min(1).max(200)
const FileName = z.string().min(1).max(255)

/** An export's status: its file, and the rows written so far. */
export const ExportStatusSchema = JobStatusSchema.extend({
  fileName: z.string(),
  /** Rows written so far, and the rows asked for (fewer arrive when the results end first). */
  rows: z.number().int(),
  rowsWanted: z.number().int(),
  bytes: z.number().int(),
  /** Browser host, when done: a one-time address the page opens to download the file (main serves it; its bytes never pass through the page). */
  downloadUrl: z.string().nullable(),
})

export const TestRunStatusSchema = JobStatusSchema.extend({
  /** What it runs against, in words: "Demo, config production". */
  target: z.string(),
  total: z.number().int(),
  done: z.number().int(),
  /** In the order of the cases run; null for a case not finished yet. */
  cases: z.array(CaseReportSchema.nullable()),
})

export const contract = {
  'app:info': { request: z.object({}).strict(), reply: AppInfoSchema },
  'connections:list': { request: z.object({}).strict(), reply: z.array(ConnectionViewSchema) },
  'connections:save': { request: ConnectionInputSchema, reply: ConnectionViewSchema },
  'connections:delete': { request: z.object({ id: Id }).strict(), reply: z.object({ deleted: z.boolean() }) },
  'secrets:set': {
    request: z.object({ connectionId: Id, secret: SecretText }).strict(),
    reply: z.object({ stored: z.enum(['os', 'memory']) }),
  },
  'secrets:clear': { request: z.object({ connectionId: Id }).strict(), reply: z.object({ cleared: z.boolean() }) },
  /** Requests a token (ForceReauth false, past the cache) and the API description; says exactly what failed. */
  'connections:test': { request: z.object({ connectionId: Id }).strict(), reply: ConnectionTestSchema },
  /**
   * "Test connection" in the form: tests what the form holds without saving
   * anything. A secret typed in the form is used for this test only; without
   * one, a saved profile's stored secret is used if the form's auth URL has
   * the origin it was entered for. The token it gets is thrown away.
   */
  'connections:check': {
    request: z.object({ connection: ConnectionInputSchema, secret: SecretText.optional() }).strict(),
    reply: ConnectionCheckResultSchema,
  },
  /** Saves a copy of a profile (the demo too) and copies its client secret inside the main process; replies with the copy. */
  'connections:duplicate': { request: z.object({ connectionId: Id }).strict(), reply: ConnectionViewSchema },
  /** Records the connection the user chose, so the app reopens on it. */
  'connections:use': { request: z.object({ connectionId: Id }).strict(), reply: z.object({ lastConnectionId: Id }) },
  /** Asks for a new token with ForceReauth true ("Re-authenticate"). */
  'connections:reauth': { request: z.object({ connectionId: Id }).strict(), reply: ConnectionViewSchema },
  'api:describe': {
    request: z.object({ connectionId: Id, api: z.string().min(1).max(500) }).strict(),
    /** null: the server has no description route (404); the UI falls back to free-form entry. */
    reply: ApiDescriptionSchema.nullable(),
  },
  /**
   * The description as api:describe reads it, and when there is none, why
   * (404, not allowed to read it, another shape), for the window to say.
   * A 401/403 with a token is thrown as api:describe throws it.
   */
  'api:learn': {
    request: z.object({ connectionId: Id, api: z.string().min(1).max(500) }).strict(),
    reply: ApiLearningSchema,
  },
  'query:run': {
    request: z
      .object({
        connectionId: Id,
        /** Chosen by the renderer so that it can cancel this run. */
        requestId: Id,
        request: QueryRequestSchema,
        /** Bypass the short-lived cache of identical requests ("Run again"). */
        fresh: z.boolean().optional(),
        /** Asked alongside the user's run or for no run of theirs (its statistics, facet options, the Judge dialog's results): left out of History. */
        keepOutOfHistory: z.boolean().optional(),
        /** A page Load more asks for, of the run whose first page was asked as this requestId: History adds it to that run's entry. */
        continues: Id.optional(),
      })
      .strict(),
    reply: QueryRunReplySchema,
  },
  'query:cancel': {
    request: z.object({ requestId: Id }).strict(),
    reply: z.object({ cancelled: z.boolean() }),
  },
  /** Recorded runs, newest first; `text` keeps those whose connection, API, config, URL or status contains it (any case). */
  'history:list': {
    request: z.object({ text: z.string().max(2_000).optional(), limit: z.number().int().min(1).max(1_000).optional() }).strict(),
    reply: z.array(HistoryEntrySchema),
  },
  'history:clear': { request: z.object({}).strict(), reply: z.object({ cleared: z.number().int() }) },
  /** The open workspace and the editor's draft, as the last run left them (the session survives a restart). */
  'workspace:current': {
    request: z.object({}).strict(),
    reply: z.object({ workspace: WorkspaceViewSchema, draft: DraftSchema.nullable() }),
  },
  /** Replaces the open workspace with an empty one (the renderer asks about unsaved changes first). */
  'workspace:new': { request: z.object({}).strict(), reply: WorkspaceViewSchema },
  /** Electron: the native open dialog, or a recent file by id. Browser host: a recent copy by id. Null when the user cancelled. */
  'workspace:open': { request: z.object({ recentId: Id.optional() }).strict(), reply: WorkspaceViewSchema.nullable() },
  /**
   * Browser host: a file the user picked in Chromium's file picker, which the
   * page sent through the upload route as a workspace file (`upload`, its
   * ticket; bounded there at the workspace file's 32 MiB); main reads it
   * exactly as a file would be. Its text never travels in a message.
   */
  'workspace:import': {
    request: z.object({ upload: UploadIdSchema }).strict(),
    reply: WorkspaceViewSchema,
  },
  /**
   * Writes the workspace where it came from (Electron), or asks where
   * (`saveAs`, or never saved). Browser host: replies the file's text for the
   * page to offer as a download, under `name` when given (the page asks one
   * for a workspace never saved). `workspace` null: the user cancelled.
   */
  'workspace:save': {
    request: z.object({ saveAs: z.boolean().optional(), name: FileName.optional() }).strict(),
    reply: z.object({ workspace: WorkspaceViewSchema.nullable(), download: z.object({ fileName: z.string(), text: z.string() }).nullable() }),
  },
  /**
   * Adds the editor's query under `name`, or updates it. `previousName` is the
   * saved query the editor started from (a rename on save); a different query
   * already called `name` is refused unless `replace`.
   */
  'workspace:save-query': {
    request: z
      .object({
        name: QueryName,
        connectionId: Id,
        request: QueryRequestSchema,
        notes: z.string().max(100_000).optional(),
        previousName: QueryName.optional(),
        replace: z.boolean().optional(),
      })
      .strict(),
    reply: WorkspaceViewSchema,
  },
  'workspace:rename-query': { request: z.object({ name: QueryName, newName: QueryName }).strict(), reply: WorkspaceViewSchema },
  /** Copies a saved query under a free name ("… (copy)", "… (copy 2)"); replies with that name. */
  'workspace:duplicate-query': {
    request: z.object({ name: QueryName }).strict(),
    reply: z.object({ workspace: WorkspaceViewSchema, name: QueryName }),
  },
  'workspace:delete-query': { request: z.object({ name: QueryName }).strict(), reply: WorkspaceViewSchema },
  /** Runs one of the file's connections on an existing app connection. */
  'workspace:bind': { request: z.object({ fileConnectionId: Id, connectionId: Id }).strict(), reply: WorkspaceViewSchema },
  /** Creates an app connection from the file's description; the secret the user typed goes to the keychain. */
  'workspace:create-connection': {
    request: z.object({ fileConnectionId: Id, secret: SecretText.optional() }).strict(),
    reply: z.object({ workspace: WorkspaceViewSchema, connection: ConnectionViewSchema }),
  },
  /** The last 10 workspaces opened or saved, newest first. */
  'workspace:recent': { request: z.object({}).strict(), reply: z.array(RecentWorkspaceSchema) },
  /** Keeps the editor's draft for the next start (sent a moment after each edit). */
  'workspace:draft': { request: z.object({ draft: DraftSchema }).strict(), reply: z.object({ kept: z.boolean() }) },
  /**
   * The facets declared by hand for an app connection's API, as the whole
   * list should now be; kept on the file connection bound to it (added to the
   * file if missing), so they are saved and shared with the workspace.
   */
  'workspace:set-facets': {
    request: z.object({ connectionId: Id, facets: z.array(FacetDeclarationSchema).max(MAX_FACET_DECLARATIONS) }).strict(),
    reply: WorkspaceViewSchema,
  },
  /**
   * Exports results in a server format: main asks the server page by page
   * (100 rows a page) from the request's offset, `rows` rows at most, and
   * streams them to a file: the one the user chooses in Electron's save
   * dialog, or a download in the browser host. Null: the user cancelled the dialog.
   */
  ...jobChannels('export', {
    start: z
      .object({
        connectionId: Id,
        request: QueryRequestSchema,
        format: z.enum(EXPORT_FORMATS),
        rows: z.number().int().min(1).max(MAX_EXPORT_ROWS),
        /** csv and xlsx: the grid's columns (`rank`, `1.name`), in order; left out: every column the pages hold. */
        columns: z.array(z.string().min(1).max(1_000)).min(1).max(MAX_EXPORT_COLUMNS).optional(),
        /** The saved query the rows come from, which names the file (else the search's parameters do). */
        savedQuery: QueryName.optional(),
      })
      .strict(),
    status: ExportStatusSchema,
    startReply: ExportStatusSchema.nullable(),
  }),
  /** "Copy as → curl, with the Demo's secret": the built-in Demo only (refused for any other connection); its secret changes every start and reaches nothing but this machine. */
  'copy-as:demo-with-secret': { request: z.object({ connectionId: Id, request: QueryRequestSchema }).strict(), reply: z.object({ text: z.string() }) },
  /**
   * Runs the open workspace's test cases (all, or those named) against a
   * target (default: each case's own bound connection), a few at a time.
   * Replies at once; progress and results through `tests:status`.
   */
  ...jobChannels('tests', {
    start: z
      .object({
        runId: Id,
        target: RunTargetSchema.optional(),
        names: z.array(z.string().min(1).max(200)).max(10_000).optional(),
        concurrency: z.number().int().min(1).max(16).optional(),
      })
      .strict(),
    status: TestRunStatusSchema,
  }),
  /**
   * "Add test from current query": runs the editor's query and adds a case
   * whose expectations come from this answer (status, total at least, the
   * first item within the top 3, a snapshot of the top 10), for the user to
   * edit. A saved query the editor started from is referenced by name.
   */
  'tests:add-from-query': {
    request: z
      .object({
        name: z.string().min(1).max(200).optional(),
        connectionId: Id,
        request: QueryRequestSchema,
        savedQuery: QueryName.optional(),
      })
      .strict(),
    reply: z.object({ workspace: WorkspaceViewSchema, name: z.string() }),
  },
  /** Replaces a case's expectations (and its name, when `newName`). */
  'tests:edit': {
    request: z.object({ name: z.string().min(1).max(200), newName: z.string().min(1).max(200).optional(), expect: ExpectationsSchema }).strict(),
    reply: WorkspaceViewSchema,
  },
  'tests:delete': { request: z.object({ name: z.string().min(1).max(200) }).strict(), reply: WorkspaceViewSchema },
  /** Runs a snapshot case (on the target, default its connection) and records its top ids as the new baseline. */
  'tests:update-snapshot': {
    request: z.object({ name: z.string().min(1).max(200), target: RunTargetSchema.optional() }).strict(),
    reply: z.object({ workspace: WorkspaceViewSchema, report: CaseReportSchema }),
  },
  /** The same chain on two targets at once, to a depth: both sides, the rank changes and the figures. */
  'compare:run': {
    request: z
      .object({
        requestId: Id,
        request: QueryRequestSchema,
        a: RunTargetSchema,
        b: RunTargetSchema,
        depth: z.union([z.literal(10), z.literal(50), z.literal(100)]),
      })
      .strict(),
    reply: ComparisonSchema,
  },
  /** The window's view preferences (theme, view, open panels), kept in the data folder (the browser host's page forgets its storage with each new port); set merges a change, reset goes back to the defaults. */
  'view-prefs:get': { request: z.object({}).strict(), reply: ViewPrefsSchema },
  'view-prefs:set': { request: ViewPrefsPatchSchema, reply: ViewPrefsSchema },
  'view-prefs:reset': { request: z.object({}).strict(), reply: ViewPrefsSchema },
  ...relevanceContract,
  ...experimentContract,
  ...judgeContract,
} satisfies Record<Channel, { request: z.ZodType; reply: z.ZodType }>

export type Contract = typeof contract
export type RequestOf<C extends Channel> = z.input<Contract[C]['request']>
export type ReplyOf<C extends Channel> = z.output<Contract[C]['reply']>

/** A failure as it crosses to the window; a failed `query:run` carries the History entry it made, as a reply does. */
export type IpcFailure = z.infer<typeof IpcErrorSchema> & { historyEntry?: HistoryEntry }

export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcFailure }

/** What the preload exposes as `window.explorer` and the browser host mimics. */
export interface ExplorerBridge {
  invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<IpcResult<ReplyOf<C>>>
}

export type AppInfo = z.infer<typeof AppInfoSchema>
export type QueryRunReply = z.infer<typeof QueryRunReplySchema>
export type { ConnectionCheck, ConnectionCheckResult, ConnectionInput, ConnectionTest, ConnectionView }
export type WorkspaceBinding = z.infer<typeof WorkspaceBindingSchema>
export type WorkspaceView = z.infer<typeof WorkspaceViewSchema>
export type Draft = z.infer<typeof DraftSchema>
export type RecentWorkspace = z.infer<typeof RecentWorkspaceSchema>
export type ExportStatus = z.infer<typeof ExportStatusSchema>
export type TestRunStatus = z.infer<typeof TestRunStatusSchema>
export type { EvalRunStatus, ExperimentRunStatus, SetForm }
export { DraftSchema, RecentWorkspaceSchema, WorkspaceBindingSchema, WorkspaceViewSchema }
