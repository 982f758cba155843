import { describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import type { Workspace } from '../../src/shared/workspace/workspace-file'
import {
  freeCaseName,
  newCaseName,
  requireTestCase,
  sameRanking,
  withEditedTestCase,
  withRecordedSnapshot,
  withTestCase,
  withoutTestCase,
} from '../../src/shared/workspace/test-edits'
import { refusal } from '../fixtures/failure-of'
import { sampleWorkspace } from '../fixtures/sample-workspace'

/**
 * The edits of the open workspace's test cases: each gives a new workspace,
 * the cases keep their order (a new one last), and a refused edit names the
 * field and the rule.
 */

const first = { name: 'has rows', query: 'Paris', expect: { totalAtLeast: 1 } }
const second = { name: 'San', query: 'Paris', expect: { status: 200, snapshot: { ids: ['a', 'b', 'c'], minRbo: 0.8 } } }
const workspace: Workspace = { ...sampleWorkspace, tests: [first, second] }
const names = (w: Workspace) => (w.tests ?? []).map((testCase) => testCase.name)

describe('test case names', () => {
  it('a name the user typed is trimmed and must be free, the field named', () => {
    expect(freeCaseName(workspace, '  new one ', 'name')).toBe('new one')
    expect(refusal(() => freeCaseName(workspace, ' San ', 'name')).toIpc()).toEqual({
      code: 'validation',
      message: 'A test case named "San" exists; choose another name.',
      problems: [{ field: 'name', message: '"San" is taken' }],
    })
    expect(refusal(() => freeCaseName(workspace, '', 'name')).message).toBe('Name: give the test case a name.')
    expect(refusal(() => freeCaseName(workspace, ' ', 'newName')).toIpc().problems).toEqual([{ field: 'newName', message: 'empty' }])
    expect(refusal(() => freeCaseName(workspace, ' ', 'newName')).message).toBe('New name: give the test case a name.')
    // A case keeps its own name.
    expect(freeCaseName(workspace, 'San', 'newName', second)).toBe('San')
  })

  it('without a name given, one derived from the hint that is free', () => {
    expect(newCaseName(workspace, undefined, 'San')).toBe('San (2)')
    expect(newCaseName(workspace, undefined, 'Oslo')).toBe('Oslo')
    expect(newCaseName({ ...sampleWorkspace }, undefined, '')).toBe('New test')
    expect(() => newCaseName(workspace, 'San', 'anything')).toThrow('A test case named "San" exists')
  })
})

describe('test case edits', () => {
  it('adds a case last, and refuses one whose name is taken', () => {
    const added = withTestCase(workspace, { name: 'third', query: 'Paris', expect: {} })
    expect(names(added)).toEqual(['has rows', 'San', 'third'])
    expect(names(withTestCase(sampleWorkspace, first))).toEqual(['has rows'])
    expect(refusal(() => withTestCase(workspace, { ...first, expect: {} })).code).toBe('validation')
    expect(workspace.tests).toHaveLength(2)
  })

  it('an edit replaces the expectations and may rename, in place', () => {
    const edited = withEditedTestCase(workspace, 'has rows', { newName: 'renamed', expect: { status: 404 } })
    expect(edited.tests).toEqual([{ name: 'renamed', query: 'Paris', expect: { status: 404 } }, second])
    expect(withEditedTestCase(workspace, 'San', { expect: {} }).tests![1]).toEqual({ name: 'San', query: 'Paris', expect: {} })
    expect(refusal(() => withEditedTestCase(workspace, 'has rows', { newName: 'San', expect: {} })).message).toBe('A test case named "San" exists; choose another name.')
    expect(refusal(() => withEditedTestCase(workspace, 'nope', { expect: {} })).toIpc()).toEqual({ code: 'not_found', message: 'There is no test case named "nope" in this workspace.' })
  })

  it('a delete removes that case alone', () => {
    expect(withoutTestCase(workspace, 'has rows').tests).toEqual([second])
    expect(refusal(() => withoutTestCase(sampleWorkspace, 'has rows')).code).toBe('not_found')
    expect(requireTestCase(workspace, 'San')).toBe(second)
  })

  it('a snapshot is recorded as deep as it was (else the top 10), with names where they differ from the ids', () => {
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`)
    expect(withRecordedSnapshot(workspace, 'San', keys, ['K0', 'k1', 'K2']).tests![1]!.expect).toEqual({
      status: 200,
      snapshot: { ids: ['k0', 'k1', 'k2'], names: ['K0', '', 'K2'], minRbo: 0.8 },
    })
    expect(withRecordedSnapshot(workspace, 'has rows', keys).tests![0]!.expect).toEqual({
      totalAtLeast: 1,
      snapshot: { ids: keys.slice(0, 10), minRbo: 0.9 },
    })
    expect(refusal(() => withRecordedSnapshot(workspace, 'San', [])).message).toBe('No snapshot was recorded for "San": the run found no items to record.')
  })
})

describe('sameRanking', () => {
  const request = sampleWorkspace.queries[0]!.request
  it('ignores the page, format and response type a case sets itself, not the query', () => {
    const paged: QueryRequest = { ...request, responseType: 'results,count', options: { ...request.options, count: 50, offset: 20, format: 'json' } }
    expect(sameRanking(request, paged)).toBe(true)
    expect(sameRanking(request, { ...request, steps: [{ endpoint: 'search', parameters: { query: 'rome' } }] })).toBe(false)
    expect(sameRanking(request, { ...request, options: { ...request.options, config: 'other' } })).toBe(false)
  })
})
