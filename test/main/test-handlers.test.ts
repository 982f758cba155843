import { describe, expect, it } from 'vitest'
import { testHandlers } from '../../src/main/ipc/handlers/test-handlers'
import { TestRuns } from '../../src/main/test-cases/test-runs'
import type { Workspace } from '../../src/shared/workspace/workspace-file'
import { failureOf } from '../fixtures/failure-of'
import { useHandlerSessions } from '../fixtures/handler-session'
import { useTempDirs } from '../fixtures/temp-dirs'
import { search, untilEnded } from './support'

/** The Tests region's channels over a real workspace session and registry, against a Query API on 127.0.0.1 answering rankings the test wrote. */

const query = (name: string, text: string) => ({ name, connection: 'local', notes: '', request: search(text) })
const CONTENTS: Partial<Workspace> = {
  queries: [query('Paris', 'paris'), query('Nothing', 'nothing'), query('Broken', 'broken')],
  tests: [
    { name: 'Paris first', query: 'Paris', expect: { rankAtMost: [{ id: 'p1', rank: 1 }] } },
    { name: 'Lyon in Paris', query: 'Paris', expect: { contains: [{ id: 'lyon', within: 3 }] } },
  ],
}

describe('testHandlers', () => {
  const tempDir = useTempDirs('qe-test-handlers')
  const sessions = useHandlerSessions(tempDir, { paris: ['p1', 'p2', 'p3'], nothing: [], broken: { status: 500, message: 'Index offline' } })

  async function handlersOn(contents: Partial<Workspace> = CONTENTS) {
    const parts = await sessions.open(contents)
    const testRuns = sessions.closeAfter(new TestRuns(parts.runner, parts.log))
    return { ...parts, handlers: testHandlers({ ...parts, runs: testRuns }) }
  }

  it('runs the workspace\'s cases, or those named, on their own connections, in the background', async () => {
    const { handlers } = await handlersOn()
    await handlers['tests:start']({ runId: 'all' }, {})
    const all = await untilEnded(() => handlers['tests:status']({ runId: 'all' }, {}))
    expect([all.state, all.target, all.total, all.done]).toEqual(['done', "each case's own connection", 2, 2])
    expect(all.cases.map((report) => [report?.name, report?.outcome])).toEqual([
      ['Paris first', 'passed'],
      ['Lyon in Paris', 'failed'],
    ])
    await handlers['tests:start']({ runId: 'one', names: ['Lyon in Paris'] }, {})
    expect((await untilEnded(() => handlers['tests:status']({ runId: 'one' }, {}))).cases.map((report) => report?.name)).toEqual(['Lyon in Paris'])
  })

  it('refuses a run of no cases, or of cases the workspace does not have, naming them', async () => {
    const { handlers } = await handlersOn()
    expect((await failureOf(handlers['tests:start']({ runId: 'r', names: [] }, {}))).message).toBe('names: name at least one test case to run, or leave names out to run them all.')
    const unknown = await failureOf(handlers['tests:start']({ runId: 'r', names: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'Paris first'] }, {}))
    expect([unknown.code, unknown.message]).toEqual(['not_found', 'The workspace has no test case named "a", "b", "c", "d", "e" (and 2 more).'])
    const { handlers: bare } = await handlersOn({ queries: [] })
    expect((await failureOf(bare['tests:start']({ runId: 'r' }, {}))).message).toBe('The workspace has no test cases to run: add one with "Add test from current query".')
  })

  it('adds a case from the editor\'s query, expecting what it answered now; an error status is expected as such', async () => {
    const { handlers, connectionId } = await handlersOn()
    const added = await handlers['tests:add-from-query']({ connectionId, request: search('paris'), savedQuery: 'Paris' }, {})
    const made = added.workspace.tests.find((testCase) => testCase.name === added.name)!
    expect(made).toMatchObject({ query: 'Paris' })
    expect(made.expect.snapshot?.ids).toEqual(['p1', 'p2', 'p3'])

    const failed = await handlers['tests:add-from-query']({ connectionId, name: 'Broken answers 500', request: search('broken') }, {})
    expect(failed.workspace.tests.find((testCase) => testCase.name === 'Broken answers 500')?.expect).toEqual({ status: 500, messageStartsWith: 'Index offline' })
  })

  it('refuses a taken name before the query runs', async () => {
    const { handlers, connectionId } = await handlersOn()
    const before = sessions.api().asked().length
    const taken = await failureOf(handlers['tests:add-from-query']({ connectionId, name: 'Paris first', request: search('paris') }, {}))
    expect(taken.code).toBe('validation')
    expect(sessions.api().asked().length).toBe(before)
  })

  it('records a snapshot of what a case finds now; a case that finds nothing records none, saying why', async () => {
    const { handlers, session } = await handlersOn()
    const recorded = await handlers['tests:update-snapshot']({ name: 'Lyon in Paris' }, {})
    expect(recorded.workspace.tests.find((testCase) => testCase.name === 'Lyon in Paris')?.expect.snapshot).toMatchObject({ ids: ['p1', 'p2', 'p3'], names: ['P1', 'P2', 'P3'] })
    expect(recorded.report.outcome).toBe('failed')

    await session.edit((workspace) => ({ ...workspace, tests: [...(workspace.tests ?? []), { name: 'Empty', query: 'Nothing', expect: {} }] }))
    const none = await failureOf(handlers['tests:update-snapshot']({ name: 'Empty' }, {}))
    expect([none.code, none.message]).toEqual(['validation', 'No snapshot was recorded for "Empty": the run found no items'])
  })
})
