import { resolve } from 'node:path'
import { runCases, DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../main/test-cases/run-cases'
import { documentFor, readWorkspaceFile, writeWorkspaceFile } from '../../main/workspaces/workspace-files'
import { layoutOf } from '../../shared/workspace/workspace-file'
import { resolveCase } from '../../shared/test-cases/case-request'
import { withSnapshot } from '../../shared/test-cases/derive-expectations'
import { failureLines, summary, toJUnit, type SuiteReport } from '../../shared/test-cases/report'
import type { Workspace } from '../../shared/workspace/workspace-file'
import { EXIT_OK, InputError, stringOption, type Command, type OptionValues } from '../command'
import { concurrencyOf, CONNECTION_FLAGS, CONNECTION_NOTES, connectionFlags, maxWaitOf, readWorkspaceArgument, targetText } from './workspace-arguments'
import { withFlags } from '../flags'
import { checkOutputPath, writeOutput } from '../output-files'
import { openRunTarget, overridesOf, warmedUp } from '../run-target'
import { writeJson } from '../terminal-io'

export const EXIT_FAILED = 1


const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/**
 * `test <workspace.qxw.json>`: runs the workspace's test cases against one of
 * its connections (flags override its fields, so CI can point the same file
 * at a staging host), prints a line per case and the failures in detail, and
 * exits 0 when all pass, 1 when some fail, 2 on bad input.
 */
export const testCommand: Command = {
  name: 'test',
  summary: "run a workspace's test cases against a connection (JUnit and JSON reports for CI)",
  usage: '<workspace.qxw.json> [--connection NAME] [--config NAME] [--api NAME] [--junit FILE] [--json] [--update-snapshots] [--concurrency N] [--grep TEXT]',
  ...withFlags([
    '<workspace.qxw.json>   the workspace file whose "tests" run',
    CONNECTION_FLAGS,
    ...CONNECTION_NOTES,
    {
      grep: { type: 'string', value: 'TEXT', help: 'only the cases whose name contains TEXT (any case)' },
      concurrency: { type: 'string', value: 'N', help: `cases run at once (default ${DEFAULT_CONCURRENCY}, at most ${MAX_CONCURRENCY})` },
      junit: { type: 'string', value: 'FILE', help: 'also write a JUnit XML report (testsuite/testcase/failure) to FILE' },
      json: { type: 'boolean', help: 'print a JSON report instead of lines' },
      'update-snapshots': { type: 'boolean', help: "record each snapshot case's top ids from this run into the workspace file" },
    },
    'Exit status: 0 every case passed, 1 some failed, 2 bad input (file, connection, secret, or a --junit',
    'file that cannot be written, found before the first case runs).',
  ]),
  positionals: { min: 1, max: 1 },
  async run({ positionals, values }, io) {
    const path = positionals[0]!
    let readBytes = 0
    const { workspace, fileName } = await readWorkspaceArgument(path, async (at) => {
      const read = await readWorkspaceFile(at)
      if (read.ok) readBytes = read.bytes
      return read
    })
    const concurrency = concurrencyOf(values, DEFAULT_CONCURRENCY, MAX_CONCURRENCY)
    const maxWait = maxWaitOf(values)
    const grep = stringOption(values, 'grep')?.toLowerCase()
    const all = workspace.tests ?? []
    const chosen = all.filter((testCase) => grep === undefined || testCase.name.toLowerCase().includes(grep))
    if (all.length === 0) throw new InputError([`${fileName}: the workspace has no test cases ("tests").`])
    if (chosen.length === 0) throw new InputError([`--grep: no test case of ${fileName} has "${stringOption(values, 'grep')}" in its name.`])

    const junit = stringOption(values, 'junit')
    // Known writable before the first case runs.
    if (junit !== undefined) await checkOutputPath('--junit', junit)

    const json = values.json === true
    const say = (line: string) => (json ? io.err(line) : io.out(line))
    const target = await openRunTarget(workspace, connectionFlags(values), io.env ?? process.env, fileName, io.clock, io.secrets)
    const overrides = overridesOf({ config: stringOption(values, 'config'), api: stringOption(values, 'api') })
    const label = targetText(target.label, overrides)
    // Every case runs on this one connection, so it asks that connection's workspace (--workspace moves it).
    overrides.workspace = target.connection.workspace
    try {
      await warmedUp(target, say, maxWait)
      if (!json) say(`Running ${chosen.length} test case${chosen.length === 1 ? '' : 's'} of ${fileName} on ${label}`)
      const started = performance.now()
      const resolved = chosen.map((testCase) => resolveCase(workspace, testCase))
      const cases = await runCases({
        runner: target.runner,
        targetOf: () => target.target,
        overrides,
        cases: resolved,
        concurrency,
        runId: 'cli',
        onCase: (report) => {
          if (!json) say(`${report.outcome === 'passed' ? '✓' : '✗'} ${report.name} (${Math.round(report.durationMs)} ms)`)
        },
      })
      const report: SuiteReport = { name: fileName.replace(/\.qxw\.json$/, ''), target: label, durationMs: performance.now() - started, cases }
      const counts = summary(report)
      if (json) {
        writeJson(io.out, JSON.stringify({ ...report, summary: counts }, null, 2))
      } else {
        const failures = cases.filter((entry) => entry.outcome !== 'passed')
        if (failures.length > 0) say('')
        for (const failure of failures) {
          say(`✗ ${failure.name}`)
          for (const line of failureLines(failure)) say(`    ${line}`)
        }
        say('')
        say(
          `${counts.passed} passed, ${counts.failed} failed${counts.errors > 0 ? `, ${counts.errors} could not run` : ''} in ${seconds(report.durationMs)} on ${label}`,
        )
      }
      if (junit !== undefined) {
        await writeOutput('--junit', junit, toJUnit(report), io)
        say(`JUnit report: ${junit}`)
      }
      if (values['update-snapshots'] === true) {
        const updated = withSnapshots(workspace, cases)
        if (updated.count > 0) {
          // In the layout the app would save the file as read (compact stays compact), keeping the file's mode.
          await writeWorkspaceFile(resolve(path), updated.workspace, layoutOf(documentFor(workspace, readBytes)))
          say(`Recorded ${updated.count} snapshot${updated.count === 1 ? '' : 's'} in ${fileName}.`)
        }
      }
      return counts.failed + counts.errors === 0 ? EXIT_OK : EXIT_FAILED
    } finally {
      await target.close()
    }
  },
}

/** The workspace with each snapshot case's ids (and their names) replaced by what this run saw (its depth and threshold kept). */
function withSnapshots(workspace: Workspace, reports: { name: string; keys?: string[]; labels?: string[] }[]): { workspace: Workspace; count: number } {
  let count = 0
  const tests = workspace.tests?.map((testCase) => {
    const report = reports.find((each) => each.name === testCase.name)
    const expect = testCase.expect.snapshot && report?.keys ? withSnapshot(testCase.expect, report.keys, report.labels) : null
    if (!expect) return testCase
    count++
    return { ...testCase, expect }
  })
  return { workspace: { ...workspace, ...(tests ? { tests } : {}) }, count }
}

