import { randomUUID } from 'node:crypto'
import { ExplorerError } from '../../../shared/ipc/errors'
import { caseNameHint } from '../../../shared/test-cases/case-name'
import { outcomeOf, rankingRequest, resolveCase, serverMessage } from '../../../shared/test-cases/case-request'
import { expectationsFromAnswer, expectationsFromError, SNAPSHOT_DEPTH, snapshotDepth, withSnapshot } from '../../../shared/test-cases/derive-expectations'
import type { Expectations } from '../../../shared/test-cases/test-case'
import type { ConnectionRegistry } from '../../connections/connection-registry'
import type { QueryRunner } from '../../http/query-runner'
import { caseTargets } from '../../test-cases/case-targets'
import { runCase } from '../../test-cases/run-cases'
import { freeCaseName, requireTestCase, withEditedTestCase, withoutTestCase, withRecordedSnapshot } from '../../../shared/workspace/test-edits'
import { scrubbedReport, type TestRuns } from '../../test-cases/test-runs'
import type { Logger } from '../../logging/logger'
import type { WorkspaceSession } from '../../workspaces/workspace-session'
import type { DomainHandlers } from '../handler-table'

export type TestChannel = 'tests:start' | 'tests:status' | 'tests:cancel' | 'tests:add-from-query' | 'tests:edit' | 'tests:delete' | 'tests:update-snapshot'

export interface TestHandlerDeps {
  session: WorkspaceSession
  registry: ConnectionRegistry
  runner: QueryRunner
  runs: TestRuns
  log: Logger
}

/** Ids that cannot be a case's id: they make a snapshot case's request as deep as the snapshot it will record. */
const placeholders = (depth: number) => Array.from({ length: depth }, (_, index) => `\u0000${index}`)

/** The open workspace's test cases: runs in the background, and the edits of the Tests region. */
export function testHandlers({ session, registry, runner, runs, log }: TestHandlerDeps): DomainHandlers<TestChannel> {
  return {
    'tests:start': async ({ runId, target, names, concurrency }) => {
      const context = await session.testContext()
      const all = context.workspace.tests ?? []
      if (all.length === 0) throw new ExplorerError('validation', 'The workspace has no test cases to run: add one with "Add test from current query".')
      if (names !== undefined) {
        if (names.length === 0) throw new ExplorerError('validation', 'names: name at least one test case to run, or leave names out to run them all.')
        const unknown = names.filter((name) => !all.some((testCase) => testCase.name === name))
        if (unknown.length > 0) {
          const listed = unknown.slice(0, 5).map((name) => `"${name}"`).join(', ')
          throw new ExplorerError('not_found', `The workspace has no test case named ${listed}${unknown.length > 5 ? ` (and ${unknown.length - 5} more)` : ''}.`)
        }
      }
      const chosen = names === undefined ? all : all.filter((testCase) => names.includes(testCase.name))
      return runs.start({
        runId,
        cases: chosen.map((testCase) => resolveCase(context.workspace, testCase)),
        targets: caseTargets(registry, context, target),
        concurrency,
      })
    },
    'tests:status': async ({ runId }) => runs.status(runId),
    'tests:cancel': ({ runId }) => runs.cancel(runId),

    'tests:add-from-query': async ({ name, connectionId, request, savedQuery }, { signal }) => {
      const target = registry.target(connectionId)
      // A name that is taken is refused before the query runs.
      if (name !== undefined) freeCaseName((await session.testContext()).workspace, name, 'name')
      // Asked exactly as the new case will ask it (the top 10 with the total), so it passes when run right after.
      const asked = rankingRequest(request, { depth: SNAPSHOT_DEPTH, total: true })
      let expect: Expectations
      try {
        const reply = await runner.run(`tests:add:${randomUUID()}`, target, asked, { fresh: true, signal })
        expect = expectationsFromAnswer(outcomeOf(reply, reply.timings.totalMs))
      } catch (error) {
        // An error status is an answer a case can expect; no answer at all (network, timeout, cancelled) is not.
        const status = error instanceof ExplorerError && error.code !== 'cancelled' && error.code !== 'validation' ? error.extra.status : undefined
        if (status === undefined) throw error
        expect = expectationsFromError(status, (error as ExplorerError).extra.serverMessage ?? serverMessage((error as Error).message))
      }
      return session.addTestCase({ name, nameHint: caseNameHint(request, savedQuery), connectionId, request, savedQuery, expect })
    },
    'tests:edit': ({ name, newName, expect }) => session.edit((workspace) => withEditedTestCase(workspace, name, { newName, expect })),
    'tests:delete': ({ name }) => session.edit((workspace) => withoutTestCase(workspace, name)),

    'tests:update-snapshot': async ({ name, target }, { signal }) => {
      const context = await session.testContext()
      const testCase = requireTestCase(context.workspace, name)
      const resolved = resolveCase(context.workspace, testCase)
      const targets = caseTargets(registry, context, target)
      const probe = { ...resolved, expect: { ...testCase.expect, snapshot: { ids: placeholders(snapshotDepth(testCase.expect)), minRbo: 0 } } }
      const run = await runCase(probe, () => targets.targetOf(resolved), {
        runner,
        requestId: `tests:snapshot:${randomUUID()}`,
        overrides: targets.overrides,
        signal,
        // The report judges the case as it will be: with the snapshot this run records.
        judge: (outcome) => withSnapshot(testCase.expect, outcome.keys, outcome.labels) ?? testCase.expect,
      })
      const { outcome, report } = run
      if (!outcome || outcome.keys.length === 0) {
        const why = report.error ?? (outcome?.status !== 200 ? `the service answered ${outcome?.status ?? 'nothing'}${outcome?.message ? `: ${outcome.message}` : ''}` : 'the run found no items')
        throw new ExplorerError('validation', `No snapshot was recorded for "${name}": ${why}`)
      }
      // The case as it is now: it may have been edited while it ran.
      const workspace = await session.edit((document) => withRecordedSnapshot(document, name, outcome.keys, outcome.labels))
      return { workspace, report: scrubbedReport(report, log.scrub) }
    },
  }
}
