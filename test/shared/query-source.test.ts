import { describe, expect, it } from 'vitest'
import { QuerySetSchema } from '../../src/shared/relevance/query-set'
import { resolveTemplate } from '../../src/shared/relevance/set-template'
import { resolveCase } from '../../src/shared/test-cases/case-request'
import { TestCaseSchema } from '../../src/shared/test-cases/test-case'
import { findQuerySource, querySourceProblems } from '../../src/shared/workspace/query-source'
import type { QueryRequest } from '../../src/shared/query/model'

/**
 * A test case and a query set's template name their query the same way: a
 * saved query of the file, or a request of their own on a connection. One
 * rule and one lookup serve both, so they must refuse and find alike.
 */

const request = { version: '1', path: [], options: {} } as unknown as QueryRequest
const saved = { name: 'Paris', connection: 'demo', request }

describe('a saved query or a request of its own', () => {
  it('asks for exactly one of the two, and a connection with an own request', () => {
    expect(querySourceProblems({}, 'a test case', 'names a saved query')).toEqual([
      { path: ['query'], message: 'a test case names a saved query ("query") or has its own "request", one of the two' },
    ])
    expect(querySourceProblems({ query: 'Paris', request }, 'a query set', 'names a saved query as its template').map((problem) => problem.path)).toEqual([
      ['query'],
      ['connection'],
    ])
    expect(querySourceProblems({ request }, 'a query set', 'names a saved query as its template')).toEqual([
      { path: ['connection'], message: 'a query set with its own request names its connection' },
    ])
    expect(querySourceProblems({ query: 'Paris' }, 'a test case', 'names a saved query')).toEqual([])
  })

  it('is the rule both schemas check, each in its own words', () => {
    const testCase = TestCaseSchema.safeParse({ name: 'c', expect: {} })
    expect(testCase.success).toBe(false)
    expect(testCase.error?.issues.map((issue) => issue.message)).toContain('a test case names a saved query ("query") or has its own "request", one of the two')
    const set = QuerySetSchema.safeParse({ name: 's', queries: [] })
    expect(set.success).toBe(false)
    expect(set.error?.issues.map((issue) => issue.message)).toContain('a query set names a saved query as its template ("query") or has its own "request", one of the two')
  })

  it('finds the saved query by name, or takes the own request with its connection', () => {
    const workspace = { queries: [saved] }
    expect(findQuerySource(workspace, { query: 'Paris' })).toEqual(saved)
    expect(findQuerySource(workspace, { query: 'Lyon' })).toBeUndefined()
    expect(findQuerySource(workspace, { request, connection: 'staging' })).toEqual({ connection: 'staging', request })
    expect(findQuerySource(workspace, { request })).toEqual({ connection: null, request })
  })

  it('resolves a case and a set template the same way', () => {
    const workspace = { queries: [saved] }
    expect(resolveCase(workspace, { name: 'c', query: 'Lyon', expect: {} })).toMatchObject({ connection: null, request: null, error: 'The saved query "Lyon" is not in the workspace.' })
    expect(resolveCase(workspace, { name: 'c', query: 'Paris', expect: {} })).toMatchObject({ connection: 'demo', request, error: null })
    const set = { name: 's', query: 'Lyon', queries: [], judgments: [] }
    expect(resolveTemplate(workspace, set)).toEqual({ connection: null, request: null, error: 'The set\'s template, the saved query "Lyon", is not in the workspace.' })
  })
})
