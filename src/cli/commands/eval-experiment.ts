import { extname } from 'node:path'
import { runExperiment, type ExperimentRun, type ExperimentTarget } from '../../main/experiments/run-experiment'
import type { PageRunner } from '../../main/evaluation/run-set'
import { experimentStats, type ExperimentSide } from '../../shared/experiments/experiment'
import type { Evaluation } from '../../shared/relevance/evaluation'
import { gradesOfSet } from '../../shared/relevance/grade-aggregate'
import { gradeSourcesOf } from '../../shared/relevance/settings-text'
import type { TargetOverrides } from '../../shared/test-cases/case-request'
import type { WorkspaceConnection } from '../../shared/workspace/workspace-file'
import { EXIT_OK, InputError, stringOption, type OptionValues } from '../command'
import type { CliIo } from '../io'
import { writeOutput } from '../output-files'
import { chooseConnection, openRunTarget, type RunTarget, warmedUp } from '../run-target'
import { writeJson } from '../terminal-io'
import type { SideSpec } from './compare-command'
import type { EvalPlan } from './eval-flags'
import { experimentJUnit } from './eval-experiment-junit'
import { experimentJson, experimentLines, type ExperimentReport } from './eval-experiment-output'
import { gateResults, type ExperimentFlags } from './eval-gates'
import { experimentJudgeNext, experimentJudgeNextJson, experimentJudgeNextLines } from './eval-judge-next'
import { settingsText, writeTrecRun } from './eval-output'
import { EXIT_FAILED } from './test-command'
import { targetText } from './workspace-arguments'

/**
 * `eval <workspace> --a SPEC --b SPEC`: the set evaluated on both sides (A,
 * the baseline, first) and, with --attribution, on A's target with each
 * prefix of the template, through runExperiment, the window's own code
 * path; then experimentStats in this process (a batch tool: the window runs
 * it in a worker thread). One run target per connection the sides use, so
 * two sides on one connection share its token.
 */

interface PlannedSide {
  flag: 'a' | 'b'
  connection: WorkspaceConnection
  /** The side's config, API and version: its own, else --config and --api. */
  overrides: TargetOverrides
}

function planSide(plan: EvalPlan, flag: 'a' | 'b', spec: SideSpec, values: OptionValues): PlannedSide {
  const name = spec.connection ?? plan.flags.connection ?? plan.templateConnection ?? undefined
  let connection: WorkspaceConnection
  try {
    connection = chooseConnection(plan.workspace, name, plan.fileName)
  } catch (error) {
    // A side's connection= is named as the side's, not as --connection.
    if (error instanceof InputError && spec.connection !== undefined) throw new InputError(error.lines.map((line) => line.replace(/^--connection: /, `--${flag}: connection `)))
    throw error
  }
  const version = spec.version
  if (version !== undefined && !/^\d+(\.\d+)*$/.test(version)) throw new InputError([`--${flag}: version "${version}" is not a version number such as 2 or 1.5.`])
  return { flag, connection, overrides: { config: spec.config ?? stringOption(values, 'config'), api: spec.api ?? stringOption(values, 'api'), version } }
}

/** `runs/exp.run` → `runs/exp.a.run` and `runs/exp.b.run`; no extension: `runs/exp.a`. */
export function sideRunPath(path: string, letter: 'a' | 'b'): string {
  const ext = extname(path)
  return ext === '' || ext === path ? `${path}.${letter}` : `${path.slice(0, -ext.length)}.${letter}${ext}`
}

const sideOf = (evaluation: Evaluation): ExperimentSide => ({ label: evaluation.targetText, rankings: evaluation.rankings, scored: evaluation.scored })

export async function runEvalExperiment(plan: EvalPlan, experiment: ExperimentFlags, values: OptionValues, io: CliIo): Promise<number> {
  const planned = [planSide(plan, 'a', experiment.a, values), planSide(plan, 'b', experiment.b, values)]
  const json = values.json === true
  const say = (line: string) => (json ? io.err(line) : io.out(line))
  const { request } = plan
  // One run target (runner, token, maybe the in-process demo) per connection the sides use.
  const targets = new Map<string, RunTarget>()
  try {
    for (const side of planned) {
      if (targets.has(side.connection.id)) continue
      const target = await openRunTarget(plan.workspace, { ...plan.flags, connection: side.connection.id }, io.env ?? process.env, plan.fileName, io.clock, io.secrets)
      targets.set(side.connection.id, target)
      await warmedUp(target, say, plan.maxWait)
    }
    // Every connection's pages go to its own runner: each target gets a key of its own, so the page memo keeps them apart too.
    const runners = new Map<string, PageRunner>()
    // Each side's evaluation is named as the window names it (see eval-command.ts); the side lines say where it ran.
    const where: string[] = []
    const sides: ExperimentTarget[] = planned.map((side) => {
      const open = targets.get(side.connection.id)!
      const key = `cli:${side.connection.id}`
      runners.set(key, open.runner)
      const { config, api, version } = side.overrides
      const shown = { config: config ?? request.options.config, api: api ?? (request.api !== open.connection.api ? request.api : undefined), version }
      where.push(targetText(open.label, shown))
      return {
        spec: { connectionId: side.connection.id, ...(config ? { config } : {}), ...(api ? { api } : {}), ...(version ? { version } : {}) },
        label: targetText(open.connection.name, shown),
        target: { ...open.target, key },
        // Each side asks its own connection's workspace (--workspace moves it).
        overrides: { ...side.overrides, workspace: open.connection.workspace },
      }
    })
    const runner: PageRunner = {
      run: (requestId, target, page, options) => {
        const own = runners.get(target.key)
        if (!own) throw new Error(`No runner for the target ${target.key}.`)
        return own.run(requestId, target, page, options)
      },
    }

    const count = plan.set.queries.length
    if (!json) {
      say(`Experiment on "${plan.set.name}" of ${plan.fileName} (${count} quer${count === 1 ? 'y' : 'ies'}), to depth ${plan.depth}`)
      where.forEach((text, index) => say(`  ${index === 0 ? 'A' : 'B'}  ${text}`))
      if (plan.judgmentsNote) say(plan.judgmentsNote)
    }
    let phase = ''
    const run: ExperimentRun = await runExperiment({
      runner,
      set: plan.set,
      template: request,
      workspaceName: plan.fileName.replace(/\.qxw\.json$/, ''),
      sides,
      metrics: plan.metrics,
      settings: plan.settings,
      depth: plan.depth,
      attribution: experiment.attribution,
      concurrency: plan.concurrency,
      runId: 'cli-eval',
      onProgress: (progress) => {
        if (progress.phase === phase) return
        phase = progress.phase
        if (!json) say(`Running ${progress.phase.startsWith('step') ? `${progress.phase} on A` : progress.phase} (${progress.done} of ${progress.total} queries done)`)
      },
    })
    const [a, b] = run.evaluations as [Evaluation, Evaluation]
    const stats = experimentStats(sideOf(a), [sideOf(b)], gradesOfSet(plan.set, a.settings.aggregate), a.judgeDepth, { alpha: experiment.alpha })
    const report: ExperimentReport = {
      fileName: plan.fileName,
      set: plan.set.name,
      metrics: plan.metrics,
      sides: [a, b],
      attribution: experiment.attribution ? run.attribution : null,
      stats,
      gates: gateResults(experiment.gates, stats),
      settingsLine: settingsText(plan.settings, plan.depth, a.judgeDepth, gradeSourcesOf(plan.set)),
      depth: plan.depth,
      reused: run.reused,
    }
    const judgeNext = plan.judgeNext === null ? null : experimentJudgeNext([a, b], plan.set, plan.metrics, stats, plan.judgeNext)
    if (json) {
      const out = experimentJson(report)
      writeJson(io.out, JSON.stringify(judgeNext ? { ...out, judgeNext: experimentJudgeNextJson(judgeNext, plan.metrics) } : out, null, 2))
    } else {
      for (const line of experimentLines(report)) say(line)
      if (judgeNext) for (const line of ['', ...experimentJudgeNextLines(judgeNext, plan.metrics, a.judgeDepth)]) say(line)
    }

    const junit = stringOption(values, 'junit')
    if (junit !== undefined) {
      await writeOutput('--junit', junit, experimentJUnit(report), io)
      say(`JUnit report: ${junit}`)
    }
    const trecRun = stringOption(values, 'trec-run')
    if (trecRun !== undefined) {
      for (const [letter, evaluation] of [['a', a], ['b', b]] as const) say(await writeTrecRun(sideRunPath(trecRun, letter), evaluation, io))
    }
    const gateFailed = report.gates.some((gate) => gate.failed)
    return !gateFailed && stats.failed.length === 0 ? EXIT_OK : EXIT_FAILED
  } finally {
    for (const target of targets.values()) await target.close()
  }
}
