import { join } from 'node:path'
import { openRunTarget } from '../src/cli/run-target'
import { runExperiment } from '../src/main/experiments/run-experiment'
import { statsInThread } from '../src/main/experiments/stats-thread'
import { readWorkspaceFile } from '../src/main/workspaces/workspace-files'
import { DEFAULT_METRICS } from '../src/shared/relevance/metrics'
import { gradesOfSet } from '../src/shared/relevance/grade-aggregate'
import { DEFAULT_SETTINGS } from '../src/shared/relevance/query-set'
import { citySet } from './evaluation'
import { runWhenMain, type BenchResult } from './result'

/**
 * An experiment as the Experiments view runs it: the bench's 1,000 city
 * searches on default and on production (runExperiment: one page memo, the
 * same runner and token; the embedded demo in this process), to depth 100,
 * then the statistics in their worker thread (10,000 sign flips and 10,000
 * resamples for each of the 7 metrics). Reported: the whole wall time and
 * the statistics' share of it.
 */

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

export async function benchExperiment(): Promise<BenchResult[]> {
  const read = await readWorkspaceFile(join(__dirname, '../examples/world.qxw.json'))
  if (!read.ok) throw new Error(read.message)
  const { workspace } = read
  const { set, template } = citySet(workspace)
  const target = await openRunTarget(workspace, { demo: true }, {}, 'world.qxw.json')
  try {
    await target.warmUp(() => undefined)
    const side = (config: string) => ({ spec: null, label: `Demo, config ${config}`, target: target.target, overrides: { config, workspace: target.connection.workspace } })
    const once = async (runId: string) => {
      const started = performance.now()
      const run = await runExperiment({
        runner: target.runner,
        set,
        template,
        workspaceName: 'bench',
        sides: [side('default'), side('production')],
        metrics: DEFAULT_METRICS,
        settings: DEFAULT_SETTINGS,
        depth: 100,
        attribution: false,
        runId,
      })
      const evaluated = performance.now()
      const grades = [...gradesOfSet(set)].map(([query, items]) => [query, [...items]] as [string, [string, number][]])
      const [a, b] = run.evaluations.map((evaluation, index) => ({ label: `${'AB'[index]}`, rankings: evaluation.rankings, scored: evaluation.scored }))
      const stats = await statsInThread({ baseline: a!, others: [b!], grades, judgeDepth: run.evaluations[0]!.judgeDepth, options: {} })
      const ended = performance.now()
      return { wall: ended - started, statsMs: ended - evaluated, significant: stats.comparisons.filter((comparison) => comparison.significant).length, comparisons: stats.comparisons.length }
    }
    // Compiles the client's code and fills the service's chain cache, as a second experiment on a set finds it.
    await once('bench-experiment-warm')
    const result = await once('bench-experiment')
    const share = (result.statsMs / result.wall) * 100
    return [
      { name: 'experiment: 1000 queries × 2 targets to depth 100 on the embedded demo', value: round(result.wall / 1000, 2), unit: 's', note: `default vs production, service chain cache warm; ${result.significant} of ${result.comparisons} metric comparisons significant after Holm` },
      { name: "experiment: the statistics' share of it", value: round(share, 1), unit: '%', note: `${round(result.statsMs, 0)} ms in a worker thread (7 metrics × 10,000 sign flips and 10,000 resamples, and the thread's start)` },
    ]
  } finally {
    await target.close()
  }
}

runWhenMain(__filename, benchExperiment)
