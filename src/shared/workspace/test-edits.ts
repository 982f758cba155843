import { ExplorerError } from '../ipc/errors'
import type { QueryRequest } from '../query/model'
import { rankingRequest } from '../test-cases/case-request'
import { sameQuery } from './query-equality'
import { uniqueCaseName } from '../test-cases/case-name'
import { withSnapshot } from '../test-cases/derive-expectations'
import type { Expectations, TestCase } from '../test-cases/test-case'
import type { Workspace } from './workspace-file'

/**
 * The edits a user makes to the open workspace's test cases, as functions
 * from one workspace to the next (as query-edits.ts does for saved queries):
 * a refused edit leaves the document as it was, the cases keep their order
 * (a new one goes last), and every other key is carried along.
 */

function casesOf(workspace: Workspace): TestCase[] {
  return workspace.tests ?? []
}

export function requireTestCase(workspace: Workspace, name: string): TestCase {
  const found = casesOf(workspace).find((testCase) => testCase.name === name)
  if (!found) throw new ExplorerError('not_found', `There is no test case named "${name}" in this workspace.`)
  return found
}

function taken(name: string, field: string): ExplorerError {
  return new ExplorerError('validation', `A test case named "${name}" exists; choose another name.`, { problems: [{ field, message: `"${name}" is taken` }] })
}

/** A name the user typed: trimmed, not empty, and free (`field` is what the error names). */
export function freeCaseName(workspace: Workspace, name: string, field: string, except?: TestCase): string {
  const trimmed = name.trim()
  if (!trimmed) throw new ExplorerError('validation', `${field === 'newName' ? 'New name' : 'Name'}: give the test case a name.`, { problems: [{ field, message: 'empty' }] })
  const clash = casesOf(workspace).find((testCase) => testCase.name === trimmed)
  if (clash && clash !== except) throw taken(trimmed, field)
  return trimmed
}

/** The name the user gave (which must be free), else one derived from `hint` that is. */
export function newCaseName(workspace: Workspace, requested: string | undefined, hint: string): string {
  if (requested !== undefined) return freeCaseName(workspace, requested, 'name')
  const names = new Set(casesOf(workspace).map((testCase) => testCase.name))
  return uniqueCaseName(hint, (candidate) => names.has(candidate))
}

export function withTestCase(workspace: Workspace, testCase: TestCase): Workspace {
  if (casesOf(workspace).some((each) => each.name === testCase.name)) throw taken(testCase.name, 'name')
  return { ...workspace, tests: [...casesOf(workspace), testCase] }
}

/** New expectations for a case, and a new name when `newName` differs. */
export function withEditedTestCase(workspace: Workspace, name: string, edit: { newName?: string | undefined; expect: Expectations }): Workspace {
  const testCase = requireTestCase(workspace, name)
  const to = edit.newName === undefined ? name : freeCaseName(workspace, edit.newName, 'newName', testCase)
  const edited: TestCase = { ...testCase, name: to, expect: edit.expect }
  return { ...workspace, tests: casesOf(workspace).map((each) => (each === testCase ? edited : each)) }
}

export function withoutTestCase(workspace: Workspace, name: string): Workspace {
  const testCase = requireTestCase(workspace, name)
  return { ...workspace, tests: casesOf(workspace).filter((each) => each !== testCase) }
}

/** The case's snapshot replaced by these keys and their labels (as deep as it was), or a snapshot of the top 10 added. */
export function withRecordedSnapshot(workspace: Workspace, name: string, keys: readonly string[], labels?: readonly string[]): Workspace {
  const testCase = requireTestCase(workspace, name)
  const expect = withSnapshot(testCase.expect, keys, labels)
  if (!expect) throw new ExplorerError('validation', `No snapshot was recorded for "${name}": the run found no items to record.`)
  return { ...workspace, tests: casesOf(workspace).map((each) => (each === testCase ? { ...testCase, expect } : each)) }
}

/**
 * Whether two requests rank the same way when run as a case: the same query
 * (as the "unsaved" marker compares them: an option at its default written or
 * not, an empty parameter or none, names in any order) once the page, format
 * and response type, which a case sets itself, are left aside. A case refers
 * to a saved query only when it does, so that what it expects is what the
 * saved query gives; the connection is compared on its own.
 */
export function sameRanking(a: QueryRequest, b: QueryRequest): boolean {
  const want = { depth: 1, total: false }
  return sameQuery(rankingRequest(a, want), rankingRequest(b, want))
}
