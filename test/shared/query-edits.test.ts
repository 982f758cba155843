import { describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/shared/workspace/workspace-file'
import {
  copyName,
  fileConnectionId,
  queryName,
  requireQuery,
  withConnection,
  withDuplicatedQuery,
  withRenamedQuery,
  withSavedQuery,
  withoutQuery,
} from '../../src/shared/workspace/query-edits'
import { refusal } from '../fixtures/failure-of'
import { FILE_DEMO_CONNECTION } from '../fixtures/file-demo-connection'
import { sampleWorkspace } from '../fixtures/sample-workspace'

/**
 * The edits of the open workspace's saved queries: each gives a new
 * workspace, keeps the order (a new query last) and leaves the one it was
 * given as it was; a refused edit names the rule.
 */

const paris = sampleWorkspace.queries[0]!
const rome = { ...paris, name: 'Rome', notes: '' }
const lisbon = { ...paris, name: 'Lisbon', notes: 'west' }
const workspace: Workspace = { ...sampleWorkspace, queries: [paris, rome, lisbon], tests: [{ name: 't', query: 'Paris', expect: {} }], later: 1 } as Workspace
const names = (w: Workspace) => w.queries.map((query) => query.name)
const request = { ...paris.request, steps: [{ endpoint: 'search', parameters: { query: 'new' } }] }

describe('saving a query', () => {
  it('a new name goes last, its name trimmed, notes empty, unknown keys carried; the given workspace is unchanged', () => {
    const before = structuredClone(workspace)
    const next = withSavedQuery(workspace, { name: '  Oslo ', connection: 'demo', request })
    expect(names(next)).toEqual(['Paris', 'Rome', 'Lisbon', 'Oslo'])
    expect(next.queries[3]).toEqual({ name: 'Oslo', connection: 'demo', notes: '', request })
    expect((next as Record<string, unknown>).later).toBe(1)
    expect(workspace).toEqual(before)
  })

  it('saving under the name it started from updates it in place, keeping its notes unless given', () => {
    const next = withSavedQuery(workspace, { name: 'Paris', previousName: 'Paris', connection: 'demo', request })
    expect(names(next)).toEqual(['Paris', 'Rome', 'Lisbon'])
    expect(next.queries[0]).toMatchObject({ notes: 'the capital', request })
    expect(withSavedQuery(workspace, { name: 'Paris', previousName: 'Paris', connection: 'demo', request, notes: 'n' }).queries[0]!.notes).toBe('n')
    // Under another name: a rename, in its place.
    expect(names(withSavedQuery(workspace, { name: 'Madrid', previousName: 'Paris', connection: 'demo', request }))).toEqual(['Madrid', 'Rome', 'Lisbon'])
  })

  it('refuses a name another query has, unless replace, which drops that one', () => {
    const error = refusal(() => withSavedQuery(workspace, { name: 'Rome', previousName: 'Paris', connection: 'demo', request }))
    expect(error.toIpc()).toEqual({
      code: 'validation',
      message: 'A saved query named "Rome" exists; choose another name, or replace it.',
      problems: [{ field: 'name', message: '"Rome" is taken' }],
    })
    expect(names(withSavedQuery(workspace, { name: 'Rome', previousName: 'Paris', connection: 'demo', request, replace: true }))).toEqual(['Rome', 'Lisbon'])
    // Without a query it started from, replacing saves over the other in its place, its notes kept.
    const over = withSavedQuery(workspace, { name: 'Lisbon', connection: 'demo', request, replace: true })
    expect(names(over)).toEqual(['Paris', 'Rome', 'Lisbon'])
    expect(over.queries[2]).toMatchObject({ notes: 'west', request })
  })

  it('refuses an empty name, naming the field', () => {
    expect(refusal(() => queryName('   ')).toIpc()).toEqual({ code: 'validation', message: 'Name: give the query a name.', problems: [{ field: 'name', message: 'empty' }] })
    expect(refusal(() => withSavedQuery(workspace, { name: '', connection: 'demo', request })).message).toBe('Name: give the query a name.')
  })
})

describe('renaming, duplicating and deleting a query', () => {
  it('a rename keeps the place, and the test cases that name the query follow it', () => {
    const next = withRenamedQuery(workspace, 'Paris', ' Paname ')
    expect(names(next)).toEqual(['Paname', 'Rome', 'Lisbon'])
    expect(next.tests).toEqual([{ name: 't', query: 'Paname', expect: {} }])
    expect(withRenamedQuery(workspace, 'Paris', 'Paris')).toBe(workspace)
  })

  it('a rename is refused for a missing query, a taken name and an empty one', () => {
    expect(refusal(() => withRenamedQuery(workspace, 'Nowhere', 'x')).toIpc()).toEqual({ code: 'not_found', message: 'There is no saved query named "Nowhere" in this workspace.' })
    expect(refusal(() => withRenamedQuery(workspace, 'Paris', 'Rome')).message).toBe('A saved query named "Rome" exists; choose another name, or replace it.')
    expect(refusal(() => withRenamedQuery(workspace, 'Paris', ' ')).message).toBe('New name: give the query a name.')
  })

  it('a copy takes the first free "(copy)" name and goes last', () => {
    const taken = new Set(['Paris (copy)', 'Paris (copy 2)'])
    expect(copyName('Paris', (name) => taken.has(name))).toBe('Paris (copy 3)')
    // The name stays within 200 characters: the base is cut to 188.
    expect(copyName('x'.repeat(250), () => false)).toBe(`${'x'.repeat(188)} (copy)`)
    const { workspace: next, name } = withDuplicatedQuery(workspace, 'Rome')
    expect(name).toBe('Rome (copy)')
    expect(names(next)).toEqual(['Paris', 'Rome', 'Lisbon', 'Rome (copy)'])
    expect(next.queries[3]).toEqual({ ...rome, name: 'Rome (copy)' })
  })

  it('a delete removes that query alone; a missing one is not found', () => {
    expect(names(withoutQuery(workspace, 'Rome'))).toEqual(['Paris', 'Lisbon'])
    expect(refusal(() => withoutQuery(workspace, 'Rome ')).code).toBe('not_found')
    expect(requireQuery(workspace, 'Lisbon')).toBe(lisbon)
  })
})

describe("a connection's id in the file", () => {
  it('is its name in lower case, accents and punctuation folded to single dashes, made unique', () => {
    expect(fileConnectionId('Staging (EU) — Café', () => false)).toBe('staging-eu-cafe')
    expect(fileConnectionId('日本', () => false)).toBe('connection')
    expect(fileConnectionId('Demo', (id) => id === 'demo' || id === 'demo-2')).toBe('demo-3')
    // At most 60 characters, with no dash left at the cut.
    expect(fileConnectionId(`${'a'.repeat(59)} b`, () => false)).toBe('a'.repeat(59))
  })

  it('adding a connection gives it that id, last', () => {
    const { id: _fileId, ...description } = FILE_DEMO_CONNECTION
    const { workspace: next, id } = withConnection(workspace, description)
    expect(id).toBe('demo-2')
    expect(next.connections.map((connection) => connection.id)).toEqual(['demo', 'demo-2'])
    expect(next.connections[1]).toEqual({ ...FILE_DEMO_CONNECTION, id: 'demo-2' })
  })
})
