import { ExplorerError } from '../ipc/errors'
import type { QueryRequest } from '../query/model'
import type { SavedQuery, Workspace, WorkspaceConnection } from './workspace-file'

/**
 * The edits a user makes to the saved queries of the open workspace, as
 * functions from one workspace to the next. They never change the one they
 * are given, so a refused edit leaves the document as it was; each keeps the
 * order of the queries (a new one goes last) and every top-level key the app
 * does not know, which the spread carries along.
 */

const MAX_NAME = 200

/** A query name as the user meant it: trimmed, and not empty. */
export function queryName(name: string, label = 'Name'): string {
  const trimmed = name.trim()
  if (!trimmed) throw new ExplorerError('validation', `${label}: give the query a name.`, { problems: [{ field: 'name', message: 'empty' }] })
  return trimmed
}

function find(workspace: Workspace, name: string): SavedQuery | undefined {
  return workspace.queries.find((query) => query.name === name)
}

export function requireQuery(workspace: Workspace, name: string): SavedQuery {
  const query = find(workspace, name)
  if (!query) throw new ExplorerError('not_found', `There is no saved query named "${name}" in this workspace.`)
  return query
}

function taken(name: string): ExplorerError {
  return new ExplorerError('validation', `A saved query named "${name}" exists; choose another name, or replace it.`, {
    problems: [{ field: 'name', message: `"${name}" is taken` }],
  })
}

export interface SaveQueryEdit {
  name: string
  /** The file connection (its id inside the file) the query runs on. */
  connection: string
  request: QueryRequest
  notes?: string | undefined
  /** The saved query the editor started from: saving under another name renames it. */
  previousName?: string | undefined
  /** Overwrite another query already called `name`. */
  replace?: boolean | undefined
}

/**
 * Adds the editor's query or updates the one it started from. A different
 * query already called `name` is refused unless `replace`, which drops it
 * (the one being saved keeps its place). Notes stay as they were unless given.
 */
export function withSavedQuery(workspace: Workspace, edit: SaveQueryEdit): Workspace {
  const name = queryName(edit.name)
  const started = edit.previousName === undefined ? undefined : find(workspace, edit.previousName)
  const clash = find(workspace, name)
  const other = clash && clash !== started ? clash : undefined
  if (other && !edit.replace) throw taken(name)
  // Without a query it started from, replacing means saving over the one with that name, in its place.
  const target = started ?? other
  const saved: SavedQuery = { name, connection: edit.connection, notes: edit.notes ?? target?.notes ?? '', request: edit.request }
  if (!target) return { ...workspace, queries: [...workspace.queries, saved] }
  const queries = workspace.queries.flatMap((query) => (query === target ? [saved] : query === other ? [] : [query]))
  return { ...workspace, queries }
}

export function withRenamedQuery(workspace: Workspace, name: string, newName: string): Workspace {
  const query = requireQuery(workspace, name)
  const to = queryName(newName, 'New name')
  if (to === name) return workspace
  if (find(workspace, to)) throw taken(to)
  // Test cases that name the query follow it.
  const tests = workspace.tests?.map((testCase) => (testCase.query === name ? { ...testCase, query: to } : testCase))
  return { ...workspace, queries: workspace.queries.map((each) => (each === query ? { ...each, name: to } : each)), ...(tests ? { tests } : {}) }
}

/** "Paris (copy)", or "Paris (copy 2)" and on when that name is taken. */
export function copyName(name: string, isTaken: (candidate: string) => boolean): string {
  const base = name.slice(0, MAX_NAME - 12)
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base} (copy)` : `${base} (copy ${n})`
    if (!isTaken(candidate)) return candidate
  }
}

/** A copy of a saved query under a free name, last in the list. */
export function withDuplicatedQuery(workspace: Workspace, name: string): { workspace: Workspace; name: string } {
  const query = requireQuery(workspace, name)
  const copy = copyName(query.name, (candidate) => find(workspace, candidate) !== undefined)
  return { workspace: { ...workspace, queries: [...workspace.queries, { ...query, name: copy }] }, name: copy }
}

export function withoutQuery(workspace: Workspace, name: string): Workspace {
  const query = requireQuery(workspace, name)
  return { ...workspace, queries: workspace.queries.filter((each) => each !== query) }
}

/** An id for a connection inside the file, readable in a diff: its name in lower case, unique in the file. */
export function fileConnectionId(name: string, isTaken: (id: string) => boolean): string {
  const slug =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'connection'
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? slug : `${slug}-${n}`
    if (!isTaken(candidate)) return candidate
  }
}

/** Adds a connection description under a fresh id; replies with that id. */
export function withConnection(workspace: Workspace, description: Omit<WorkspaceConnection, 'id'>): { workspace: Workspace; id: string } {
  const id = fileConnectionId(description.name, (candidate) => workspace.connections.some((connection) => connection.id === candidate))
  return { workspace: { ...workspace, connections: [...workspace.connections, { id, ...description }] }, id }
}
