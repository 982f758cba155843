import { experimentStats } from '../src/shared/experiments/experiment'
import { scoreRankings, type QueryRanking } from '../src/shared/relevance/evaluation'
import { gradesOfSet } from '../src/shared/relevance/grade-aggregate'
import { judgeNextExperiment, type JudgeNextSet } from '../src/shared/relevance/judge-next'
import { DEFAULT_METRICS } from '../src/shared/relevance/metrics'
import { DEFAULT_SETTINGS } from '../src/shared/relevance/query-set'
import { seededRandom } from '../src/shared/seeded-random'
import { atMost, runWhenMain, type BenchResult } from './result'
import { median } from './stats'

/**
 * The judge-next queue at the size (issue 35): an experiment of
 * 1,000 queries × 2 sides to depth 100, each side's top 10 half unjudged
 * (B is A with a tenth of its items new and a fifth of its places swapped
 * with the next), grades 0–3 from a fixed seed, the default metrics, the
 * experiment's default test (10,000 sign flips, seeded). The baseline, in
 * the same run, is scoring the two sides once with the existing scorer
 * (scoreRankings), which every view of an experiment does anyway.
 */

const QUERIES = 1_000
const DEPTH = 100
const JUDGE_DEPTH = 10

function experimentAtSize(): { a: QueryRanking[]; b: QueryRanking[]; set: JudgeNextSet } {
  const random = seededRandom(3505)
  const a: QueryRanking[] = []
  const b: QueryRanking[] = []
  const judgments: JudgeNextSet['judgments'] = []
  for (let q = 0; q < QUERIES; q++) {
    const id = `q${q}`
    const itemsA = Array.from({ length: DEPTH }, (_, i) => `${id}-${i}`)
    const itemsB = itemsA.map((item, i) => (random() < 0.1 ? `${id}-b${i}` : item))
    for (let i = 0; i + 1 < DEPTH; i++) if (random() < 0.2) [itemsB[i], itemsB[i + 1]] = [itemsB[i + 1]!, itemsB[i]!]
    const ranking = (items: string[]): QueryRanking => ({ id, text: `query ${q}`, items, labels: [], error: null, durationMs: 1 })
    a.push(ranking(itemsA))
    b.push(ranking(itemsB))
    // Every other place of A's top 10 judged, and of B's own items there; half of the rest.
    const judged = new Set<string>()
    itemsA.forEach((item, i) => {
      if (i < JUDGE_DEPTH ? i % 2 === 0 : random() < 0.5) judged.add(item)
    })
    itemsB.forEach((item, i) => {
      if (i < JUDGE_DEPTH && i % 2 === 0 && !itemsA.includes(item)) judged.add(item)
    })
    for (const item of judged) judgments.push({ query: id, item, rater: 'bench', grade: Math.floor(random() * 4) })
  }
  return { a, b, set: { judgments } }
}

function timed(work: () => void, runs: number): number {
  work()
  const times: number[] = []
  for (let count = 0; count < runs; count++) {
    const started = performance.now()
    work()
    times.push(performance.now() - started)
  }
  return median(times)
}

export async function benchJudgeNext(): Promise<BenchResult[]> {
  const { a, b, set } = experimentAtSize()
  const scoring = { metrics: DEFAULT_METRICS, settings: DEFAULT_SETTINGS, judgeDepth: JUDGE_DEPTH }
  let result = judgeNextExperiment({ baseline: a, others: [b] }, set, scoring)
  const queue = timed(() => void (result = judgeNextExperiment({ baseline: a, others: [b] }, set, scoring)), 5)
  const scoringOnce = timed(() => {
    scoreRankings(a, set, DEFAULT_METRICS, DEFAULT_SETTINGS, JUDGE_DEPTH)
    scoreRankings(b, set, DEFAULT_METRICS, DEFAULT_SETTINGS, JUDGE_DEPTH)
  }, 5)
  // As the command line and the window call it: with the experiment's statistics at hand, whose p-values stand for the current ones.
  const sides = [a, b].map((rankings, index) => ({ label: 'AB'[index]!, rankings, scored: scoreRankings(rankings, set, DEFAULT_METRICS, DEFAULT_SETTINGS, JUDGE_DEPTH) }))
  const stats = experimentStats(sides[0]!, [sides[1]!], gradesOfSet(set), JUDGE_DEPTH)
  const withStats = timed(() => void judgeNextExperiment({ baseline: a, others: [b] }, set, scoring, { stats }), 5)
  const ms = Math.round(queue)
  const undecided = result.verdicts.filter((verdict) => !verdict.decided).length
  return [
    {
      name: 'judge next: 1,000 queries × 2 sides to depth 100, half the top 10 unjudged (intervals, tests now and at both extremes, queue)',
      value: ms,
      unit: 'ms',
      note: `${result.total.toLocaleString('en-US')} pairs queued, ${undecided} of ${result.verdicts.length} metrics undecided`,
      aim: atMost(ms, 500, 'ms'),
    },
    { name: 'judge next / scoring both sides once (baseline)', value: Number((queue / scoringOnce).toFixed(1)), unit: '×', note: `scoring: ${Math.round(scoringOnce)} ms` },
    {
      name: "judge next given the experiment's statistics / scoring both sides once",
      value: Number((withStats / scoringOnce).toFixed(1)),
      unit: '×',
      note: `${Math.round(withStats)} ms: the current p-values are the experiment's, not tested again`,
    },
  ]
}

runWhenMain(__filename, benchJudgeNext)
