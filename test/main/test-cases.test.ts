import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import {
  CaseReportSchema,
  TestRunStatusSchema,
  WorkspaceViewSchema,
  type ConnectionView,
  type TestRunStatus,
  type WorkspaceView,
} from '../../src/shared/ipc/contract'
import type { CaseReport } from '../../src/shared/test-cases/report'
import { call, failure, keychainMissing, search, type TestServer, untilEnded, uploadText } from './support'
import { openDemoBench, type DemoBench } from './demo-bench'

/**
 * The Tests region's channels over the real dispatcher: examples/world.qxw.json
 * imported as a user would, its cases run on the real demo service (default
 * and production), a run cancelled while a server holds its requests, cases
 * added from the editor's query, edited, renamed, deleted, and a snapshot
 * recorded anew. Real keychain, real HTTP on 127.0.0.1.
 */

const missing = await keychainMissing()

const WORLD = join(__dirname, '../../examples/world.qxw.json')
const PRODUCTION_FAILURES = ['Text ranking puts San Potito Sannitico first', 'Top 5 for "san" as recorded']

type Added = { workspace: WorkspaceView; name: string }

describe.skipIf(missing !== null)('test cases over IPC', () => {
  let bench: DemoBench
  let core: AppCore
  /** Holds every request it gets until the test ends: a run stays "under way" for as long as the test needs. */
  let silent: TestServer
  let silentConnection: ConnectionView
  let runs = 0

  const importWorld = async () => call<WorkspaceView>(core, 'workspace:import', { upload: await uploadText(core, 'world.qxw.json', readFileSync(WORLD, 'utf8')) })

  /** Polls until the run ends. */
  const finished = (runId: string): Promise<TestRunStatus> => untilEnded(async () => TestRunStatusSchema.parse(await call(core, 'tests:status', { runId })))

  async function run(request: Record<string, unknown> = {}): Promise<TestRunStatus> {
    const runId = `run-${++runs}`
    const started = TestRunStatusSchema.parse(await call(core, 'tests:start', { runId, ...request }))
    expect(started.runId).toBe(runId)
    return finished(runId)
  }

  const byName = (status: TestRunStatus) => new Map(status.cases.map((report) => [report!.name, report!]))
  const failedNames = (status: TestRunStatus) => status.cases.filter((report) => report!.outcome !== 'passed').map((report) => report!.name)

  beforeAll(async () => {
    bench = await openDemoBench('tests')
    ;({ core, silent, silentConnection } = bench)
  })
  afterAll(() => bench?.close())

  it('runs every case of world.qxw.json on its own connection (the Demo): all pass', async () => {
    const view = await importWorld()
    expect(view.tests).toHaveLength(9)
    expect(view.bindings[0]).toMatchObject({ fileConnectionId: 'demo', connectionId: 'demo' })
    const status = await run()
    expect(status).toMatchObject({ state: 'done', total: 9, done: 9, target: "each case's own connection" })
    expect(failedNames(status), JSON.stringify(status.cases, null, 1)).toEqual([])
  })

  it('fails exactly the two production cases with target config production, saying expected vs actual', async () => {
    const status = await run({ target: { connectionId: 'demo', config: 'production' } })
    expect(status.target).toBe('Demo, config production')
    expect(failedNames(status).sort()).toEqual([...PRODUCTION_FAILURES].sort())
    const snapshot = byName(status).get(PRODUCTION_FAILURES[1]!)!
    const check = snapshot.checks.find((each) => !each.passed)!
    expect(check.what).toMatch(/^snapshot of the top 5/)
    expect(check.changes?.find((change) => change.key === '71137')).toMatchObject({ rankA: null, rankB: 1, move: { kind: 'new' } })
    expect(check.labels?.['71137']).toBe('Sanaa')
    // An item the run no longer returns in the top 5 is named as the snapshot recorded it.
    expect(check.labels?.['3168001']).toBe('San Martino Sannita')
    // A ranking check names its item and the rank it was found at.
    const ranked = byName(status).get(PRODUCTION_FAILURES[0]!)!.checks.find((each) => !each.passed)!
    expect(ranked).toMatchObject({ item: 'San Potito Sannitico (3167796)', expected: 'at rank 1 or better', actual: 'found at rank 9' })
    // Only the cases named run.
    const one = await run({ names: [PRODUCTION_FAILURES[0]], target: { connectionId: 'demo', config: 'production' } })
    expect(one.cases.map((report) => report!.outcome)).toEqual(['failed'])
  })

  it('refuses a run of nothing, of unknown cases, or on an unknown connection', async () => {
    expect((await failure(core, 'tests:start', { runId: 'x', names: ['No such case'] })).message).toContain('no test case named "No such case"')
    expect((await failure(core, 'tests:start', { runId: 'x', target: { connectionId: 'nope' } })).code).toBe('not_found')
    expect((await failure(core, 'tests:status', { runId: 'never-started' })).code).toBe('not_found')
  })

  it('cancels a run mid-way: the case under way is cancelled, those not started say so', async () => {
    await call(core, 'tests:start', { runId: 'to-cancel', target: { connectionId: silentConnection.id }, concurrency: 2 })
    // Two cases are under way once the server holds two requests.
    while (silent.seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    const running = TestRunStatusSchema.parse(await call(core, 'tests:status', { runId: 'to-cancel' }))
    expect(running).toMatchObject({ state: 'running', total: 9, done: 0, target: 'Silent' })
    expect(running.cases.every((report) => report === null)).toBe(true)
    // A second run with the same id is refused while the first goes on.
    expect((await failure(core, 'tests:start', { runId: 'to-cancel' })).message).toContain('is running already')

    const cancelled = TestRunStatusSchema.parse(await call(core, 'tests:cancel', { runId: 'to-cancel' }))
    expect(cancelled).toMatchObject({ state: 'cancelled', done: 9 })
    const errors = cancelled.cases.map((report) => report!.error)
    expect(errors.slice(0, 2)).toEqual(['The request was cancelled.', 'The request was cancelled.'])
    expect(new Set(errors.slice(2))).toEqual(new Set(['Not run: the run was cancelled.']))
    expect(silent.seen).toHaveLength(2)
  })

  it('says which connection to connect when a case runs on its own connection and that one is not connected', async () => {
    const world = JSON.parse(readFileSync(WORLD, 'utf8'))
    world.connections = [{ ...world.connections[0], id: 'staging', name: 'Staging EU', clientId: 'ci', authUrl: 'http://127.0.0.1:9/auth', queryUrl: 'http://127.0.0.1:9/query' }]
    world.queries = world.queries.map((query: object) => ({ ...query, connection: 'staging' }))
    world.tests = world.tests.map((testCase: { connection?: string }) => (testCase.connection ? { ...testCase, connection: 'staging' } : testCase))
    const view = await call<WorkspaceView>(core, 'workspace:import', { upload: await uploadText(core, 'staging.qxw.json', JSON.stringify(world)) })
    expect(view.bindings[0]!.connectionId).toBeNull()
    const status = await run()
    expect(new Set(status.cases.map((report) => report!.outcome))).toEqual(new Set(['error']))
    expect(status.cases[0]!.error).toContain('The workspace\'s connection "Staging EU" is not connected')
    // On a chosen connection they run.
    expect(failedNames(await run({ target: { connectionId: 'demo' } }))).toEqual([])
  })

  it('adds a case from the editor\'s query that passes on its first run: a saved query by name, else a request of its own', async () => {
    await importWorld()
    const saved = JSON.parse(readFileSync(WORLD, 'utf8')).queries.find((query: { name: string }) => query.name === 'San, default ranking').request
    const byQuery = await call<Added>(core, 'tests:add-from-query', { connectionId: 'demo', request: saved, savedQuery: 'San, default ranking' })
    expect(byQuery.name).toBe('San, default ranking')
    const added = byQuery.workspace.tests.at(-1)!
    expect(added).toMatchObject({ name: 'San, default ranking', query: 'San, default ranking' })
    expect(added.request).toBeUndefined()
    expect(added.expect).toMatchObject({ status: 200, contains: [{ id: '3167796', within: 3 }], snapshot: { minRbo: 0.9 } })
    expect(added.expect.totalAtLeast).toBeGreaterThan(1000)
    expect(added.expect.snapshot!.ids).toHaveLength(10)

    // The editor changed the query since: the case keeps a request of its own, on the file's Demo connection.
    const edited = { ...saved, options: { ...saved.options, config: 'production' } }
    const own = await call<Added>(core, 'tests:add-from-query', { connectionId: 'demo', request: edited, savedQuery: 'San, default ranking' })
    expect(own.name).toBe('san')
    expect(own.workspace.tests.at(-1)).toMatchObject({ connection: 'demo', request: edited, expect: { contains: [{ id: '71137', within: 3 }] } })

    // A query the service refuses gives a case expecting that refusal.
    const bad = { ...search('x'), steps: [{ endpoint: 'no-such-endpoint', parameters: {} }] }
    const refused = await call<Added>(core, 'tests:add-from-query', { name: 'Refused', connectionId: 'demo', request: bad })
    expect(refused.workspace.tests.at(-1)!.expect).toEqual({ status: 400, messageStartsWith: expect.stringMatching(/^no endpoint/) })

    const status = await run({ names: ['San, default ranking', 'san', 'Refused'] })
    expect(status.cases.map((report) => [report!.name, report!.outcome])).toEqual([
      ['San, default ranking', 'passed'],
      ['san', 'passed'],
      ['Refused', 'passed'],
    ])
    // A name that is taken is refused, naming it.
    expect((await failure(core, 'tests:add-from-query', { name: 'Refused', connectionId: 'demo', request: bad })).message).toContain('A test case named "Refused" exists')
  })

  it('adds the connection description to a new workspace, as saving a query does', async () => {
    await call(core, 'workspace:new', {})
    const added = await call<Added>(core, 'tests:add-from-query', { connectionId: 'demo', request: search('tokyo') })
    expect(added.name).toBe('tokyo')
    expect(added.workspace.bindings).toEqual([expect.objectContaining({ fileConnectionId: 'demo', connectionId: 'demo', how: 'same' })])
    expect(added.workspace.tests).toEqual([expect.objectContaining({ name: 'tokyo', connection: 'demo' })])
    expect(added.workspace.dirty).toBe(true)
    expect(failedNames(await run())).toEqual([])
  })

  it('edits, renames and deletes cases; a clash or an unknown case is refused, naming it', async () => {
    await importWorld()
    const name = 'Berlin, Germany, is in the top 1'
    const edited = WorkspaceViewSchema.parse(
      await call(core, 'tests:edit', { name, newName: 'Berlin first', expect: { contains: [{ id: '2950159', within: 1 }], totalAtLeast: 5 } }),
    )
    const berlin = edited.tests.find((testCase) => testCase.name === 'Berlin first')!
    expect(berlin.expect).toEqual({ contains: [{ id: '2950159', within: 1 }], totalAtLeast: 5 })
    expect(edited.tests.map((testCase) => testCase.name).indexOf('Berlin first')).toBe(1)
    expect(edited.tests.some((testCase) => testCase.name === name)).toBe(false)

    const clash = await failure(core, 'tests:edit', { name: 'Berlin first', newName: 'Tokyo: exactly two places', expect: { status: 200 } })
    expect(clash).toMatchObject({ code: 'validation', message: 'A test case named "Tokyo: exactly two places" exists; choose another name.' })
    expect((await failure(core, 'tests:edit', { name: 'Nope', expect: {} })).code).toBe('not_found')
    // An expectation the file format refuses never reaches the document.
    expect((await failure(core, 'tests:edit', { name: 'Berlin first', expect: { contains: [{ id: '', within: 1 }] } })).code).toBe('validation')

    const deleted = await call<WorkspaceView>(core, 'tests:delete', { name: 'Berlin first' })
    expect(deleted.tests).toHaveLength(8)
    expect((await failure(core, 'tests:delete', { name: 'Berlin first' })).code).toBe('not_found')
    // The edits are in the document the session keeps and a save writes.
    expect((await call<{ workspace: WorkspaceView }>(core, 'workspace:current', {})).workspace.tests).toHaveLength(8)
  })

  it('records a snapshot anew: the production snapshot case then passes on production', async () => {
    await importWorld()
    const name = PRODUCTION_FAILURES[1]!
    const production = { connectionId: 'demo', config: 'production' }
    const reply = await call<{ workspace: WorkspaceView; report: CaseReport }>(core, 'tests:update-snapshot', { name, target: production })
    WorkspaceViewSchema.parse(reply.workspace)
    expect(CaseReportSchema.parse(reply.report)).toMatchObject({ name, outcome: 'passed' })
    const snapshot = reply.workspace.tests.find((testCase) => testCase.name === name)!.expect.snapshot!
    expect(snapshot.ids).toHaveLength(5)
    expect(snapshot.ids[0]).toBe('71137')
    // Each id with its name, as the run gave them.
    expect(snapshot.names?.[0]).toBe('Sanaa')
    expect(snapshot.names).toHaveLength(5)
    expect(snapshot.minRbo).toBe(0.9)
    expect((await run({ names: [name], target: production })).cases[0]!.outcome).toBe('passed')

    // A case without a snapshot gets one of the top 10.
    const paris = await call<{ workspace: WorkspaceView; report: CaseReport }>(core, 'tests:update-snapshot', { name: 'Paris, France, comes first' })
    expect(paris.workspace.tests[0]!.expect.snapshot!.ids).toHaveLength(10)
    expect(paris.workspace.tests[0]!.expect.rankAtMost).toEqual([{ id: '2988507', rank: 1 }])
    // An error case has nothing to record.
    const refused = await failure(core, 'tests:update-snapshot', { name: 'An unknown endpoint is refused' })
    expect(refused.message).toMatch(/^No snapshot was recorded for "An unknown endpoint is refused": the service answered 400/)
  })
})
