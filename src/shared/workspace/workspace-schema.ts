import { z } from 'zod'
import { listOf } from '../capped-issues'
import { ConnectionInputSchema } from '../connections/connection-input'
import { FacetDeclarationSchema, facetDeclarationProblems, MAX_FACET_DECLARATIONS } from '../query/facet-declaration'
import { QueryRequestSchema } from '../query/model'
import { JudgeSchema, MAX_JUDGES } from '../relevance/llm-judge'
import { QuerySetSchema } from '../relevance/query-set'
import { TestCaseSchema } from '../test-cases/test-case'

/** The workspace file's schema: what a `.qxw.json` may hold, field by field (workspace-file.ts says why it is read as hostile input). */

export const WORKSPACE_FORMAT = 'query-explorer-workspace'
export const WORKSPACE_VERSION = 1
export const WORKSPACE_EXTENSION = '.qxw.json'

/** An id that only links a query to a connection inside one file (not the app's connection id). */
const FileId = z.string().min(1).max(200)

/**
 * A connection as the file describes it: the profile's fields minus anything
 * that is the app's own (its id, the deadline setting) and with no room for
 * a secret. Unknown keys are stripped, so nothing the schema does not name is
 * ever written back.
 */
export const WorkspaceConnectionSchema = ConnectionInputSchema.pick({
  name: true,
  authUrl: true,
  queryUrl: true,
  version: true,
  workspace: true,
  api: true,
  config: true,
  clientId: true,
  tokenRequest: true,
  audience: true,
})
  .extend({
    id: FileId,
    /** Facets declared by hand for this connection's API (facet-declaration.ts): shared with the file, as its queries are. */
    facets: z.array(FacetDeclarationSchema).max(MAX_FACET_DECLARATIONS).optional(),
  })
  .strip()

export const SavedQuerySchema = z
  .object({
    name: z.string().min(1).max(200),
    /** The `id` of one of the file's connections. */
    connection: FileId,
    notes: z.string().max(100_000).default(''),
    /** The request model: chain, response type and options. */
    request: QueryRequestSchema,
  })
  .strip()

/**
 * `tests` are the workspace's test cases (test-case.ts). Top-level keys this
 * version does not know are kept as they were and written back, so an older
 * app does not drop what a newer one added.
 */
export const WorkspaceSchema = z
  .object({
    format: z.literal(WORKSPACE_FORMAT),
    version: z.literal(WORKSPACE_VERSION),
    // Each list names its first problems and counts the rest (capped-issues.ts): a file may hold a great many wrong entries.
    connections: listOf(WorkspaceConnectionSchema, 1_000).default(() => []),
    queries: listOf(SavedQuerySchema, 10_000).default(() => []),
    tests: listOf(TestCaseSchema, 10_000).optional(),
    /** Query sets with their judgments (relevance/query-set.ts). */
    sets: listOf(QuerySetSchema, 1_000).optional(),
    /** LLM judges (relevance/llm-judge.ts): settings only, never a key. */
    judges: listOf(JudgeSchema, MAX_JUDGES).optional(),
  })
  .loose()
  .superRefine((workspace, context) => {
    const ids = new Set<string>()
    workspace.connections.forEach((connection, index) => {
      if (ids.has(connection.id)) {
        context.addIssue({ code: 'custom', path: ['connections', index, 'id'], message: `the id "${connection.id}" is used by two connections` })
      }
      ids.add(connection.id)
      const facets = connection.facets ?? []
      facets.forEach((_, f) => {
        for (const problem of facetDeclarationProblems(facets, f)) {
          context.addIssue({ code: 'custom', path: ['connections', index, 'facets', f, problem.field], message: problem.message })
        }
      })
    })
    const names = new Set<string>()
    workspace.queries.forEach((query, index) => {
      if (!ids.has(query.connection)) {
        context.addIssue({ code: 'custom', path: ['queries', index, 'connection'], message: `names no connection of this file ("${query.connection}")` })
      }
      if (names.has(query.name)) {
        context.addIssue({ code: 'custom', path: ['queries', index, 'name'], message: `the name "${query.name}" is used by two queries` })
      }
      names.add(query.name)
    })
    const testNames = new Set<string>()
    workspace.tests?.forEach((testCase, index) => {
      // A case naming a saved query that is gone is kept: it reports that when run, and the file stays editable.
      if (testCase.connection !== undefined && !ids.has(testCase.connection)) {
        context.addIssue({ code: 'custom', path: ['tests', index, 'connection'], message: `names no connection of this file ("${testCase.connection}")` })
      }
      if (testNames.has(testCase.name)) {
        context.addIssue({ code: 'custom', path: ['tests', index, 'name'], message: `the name "${testCase.name}" is used by two test cases` })
      }
      testNames.add(testCase.name)
    })
    const setNames = new Set<string>()
    workspace.sets?.forEach((set, index) => {
      if (set.connection !== undefined && !ids.has(set.connection)) {
        context.addIssue({ code: 'custom', path: ['sets', index, 'connection'], message: `names no connection of this file ("${set.connection}")` })
      }
      if (setNames.has(set.name)) context.addIssue({ code: 'custom', path: ['sets', index, 'name'], message: `the name "${set.name}" is used by two query sets` })
      setNames.add(set.name)
    })
    const judgeNames = new Set<string>()
    workspace.judges?.forEach((judge, index) => {
      if (judgeNames.has(judge.name)) context.addIssue({ code: 'custom', path: ['judges', index, 'name'], message: `the name "${judge.name}" is used by two judges` })
      judgeNames.add(judge.name)
    })
  })

export type WorkspaceConnection = z.infer<typeof WorkspaceConnectionSchema>
export type SavedQuery = z.infer<typeof SavedQuerySchema>
export type Workspace = z.infer<typeof WorkspaceSchema>

export type ParseWorkspaceResult = { ok: true; workspace: Workspace } | { ok: false; message: string }

/** A workspace with nothing in it, ready to be filled and saved. */
export function emptyWorkspace(): Workspace {
  return { format: WORKSPACE_FORMAT, version: WORKSPACE_VERSION, connections: [], queries: [] }
}

