import { scoreRankings, type QueryRanking } from '../src/shared/relevance/evaluation'
import type { MetricSpec } from '../src/shared/relevance/metrics'
import type { MetricSettings, QuerySet } from '../src/shared/relevance/query-set'

/** Times scoreRankings alone, bundled as the app ships it (bench/bundled.ts): the median of `runs`, in ms, after a warm-up. */
export function timeScoring(
  rankings: readonly QueryRanking[],
  set: Pick<QuerySet, 'judgments' | 'scale'>,
  metrics: readonly MetricSpec[],
  settings: MetricSettings,
  judgeDepth: number,
  runs = 20,
): number {
  for (let i = 0; i < 5; i++) scoreRankings(rankings, set, metrics, settings, judgeDepth)
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    scoreRankings(rankings, set, metrics, settings, judgeDepth)
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[runs >> 1]!
}
