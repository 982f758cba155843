import { describe, expect, it } from 'vitest'
import { WorkspaceSchema, emptyWorkspace, type Workspace } from '../../src/shared/workspace/workspace-schema'
import { FILE_DEMO_CONNECTION as demo } from '../fixtures/file-demo-connection'
import { sampleWorkspace as sample } from '../fixtures/sample-workspace'
import { issuesOf } from '../fixtures/schema-issues'

/**
 * What a workspace may hold, checked across its lists: ids and names each
 * once, every reference to a connection one of the file's, declared facets
 * by their rules; connections keep only the fields the schema names, the
 * file's unknown top-level keys are kept.
 */

const issues = (value: unknown) => issuesOf(WorkspaceSchema, value)

const request = sample.queries[0]!.request

describe('workspace schema', () => {
  it('an empty workspace is a valid one, and a file leaving out its lists gets them empty', () => {
    expect(WorkspaceSchema.parse(emptyWorkspace())).toEqual({ format: 'query-explorer-workspace', version: 1, connections: [], queries: [] })
    expect(WorkspaceSchema.parse({ format: 'query-explorer-workspace', version: 1 })).toEqual(emptyWorkspace())
    expect(issues({ format: 'query-explorer-workspace', version: 2 })).toEqual(['version: Invalid input: expected 1'])
  })

  it("keeps a connection's known fields only, and the file's unknown top-level keys", () => {
    const parsed = WorkspaceSchema.parse({ ...sample, connections: [{ ...demo, deadlineSeconds: 30, builtIn: true }], later: { any: [1] } })
    expect(parsed.connections).toEqual([demo])
    expect((parsed as Record<string, unknown>).later).toEqual({ any: [1] })
  })

  it('refuses query sets naming no connection of the file, and a set name used twice', () => {
    const set = { name: 'S', connection: 'nowhere', request, queries: [] }
    expect(issues({ ...sample, sets: [set, { ...set, connection: 'demo' }] })).toEqual([
      'sets.0.connection: names no connection of this file ("nowhere")',
      'sets.1.name: the name "S" is used by two query sets',
    ])
  })

  it("checks each connection's declared facets by their rules, at the facet's own field", () => {
    const facets = [
      { options: 'genre', selection: 'single', resetOnSearchChange: true },
      { options: 'genre', selection: 'multiple', resetOnSearchChange: false },
      { options: 'year', filter: 'year', selection: 'single', resetOnSearchChange: true },
    ]
    expect(issues({ ...sample, connections: [{ ...demo, facets }] })).toEqual([
      'connections.0.facets.1.options: the facet "genre" is declared already',
      'connections.0.facets.2.filter: is the options endpoint itself; the filter is its partner endpoint (by default the options endpoint + ":FILTER")',
    ])
  })

  it('the sample holds no problem, and a test case may name a saved query that is gone (it says so when run)', () => {
    const withCase: Workspace = { ...sample, tests: [{ name: 't', query: 'Gone', expect: {} }] }
    expect(issues(withCase)).toEqual([])
  })
})
