import type { ExperimentRecord } from '../../shared/experiments/experiment-record'
import { ExplorerError } from '../../shared/ipc/errors'
import type { EvaluationJudgeNextReply, ExperimentJudgeNextReply, JudgeNextEntryReply } from '../../shared/ipc/relevance-contract'
import type { QueryRanking } from '../../shared/relevance/evaluation'
import { MAX_RANKING_PAGE } from '../../shared/relevance/evaluation-head'
import type { EvaluationJudgeNext, ExperimentJudgeNext, JudgeNextEntry, JudgeNextScoring } from '../../shared/relevance/judge-next'
import { deepestK, parseMetrics } from '../../shared/relevance/metrics'
import { settingsOf, type QuerySet } from '../../shared/relevance/query-set'
import { answerInThread } from '../jobs/worker-entry'
import { judgmentColumns, transferables } from './agreement-protocol'
import type { EvaluationStore } from './evaluation-store'
import type { JudgeNextPart, JudgeNextRequest } from './judge-next-protocol'

/** The built entry (electron.vite.config.ts: `judge-next`). */
const BUILT_ENTRY = 'judge-next.js'

/** By query, then item: the label a kept ranking gives an item of its top judgeDepth. */
type Labels = Map<string, Map<string, string>>

/**
 * How deep judge-next reads a ranking: the top judgeDepth (the items it
 * asks about) and each metric's k; all of it (null) when a metric has no k
 * or under `unjudged: skip`, whose condensed list reads past k. Deeper
 * items change no figure, so a ranking of 1,000 crosses to the thread as ~10.
 */
export function judgeNextDepth(scoring: JudgeNextScoring): number | null {
  if (scoring.settings.unjudged === 'skip' || scoring.metrics.some((spec) => spec.k === null)) return null
  return Math.max(scoring.judgeDepth, deepestK(scoring.metrics) ?? 0)
}

/**
 * The items of each query an experiment's queue may name, from each side's
 * first judgeDepth items (an evaluation head's previews): their rank in
 * every side is in the queue's entries ("rank 2 in B, rank 140 in A"), so a
 * side's ranking is kept down to the deepest of them. null for a query whose
 * first items repeat one: its top judgeDepth reaches past them, so its
 * rankings are kept whole.
 */
export function itemsNamed(previews: readonly Readonly<Record<string, readonly string[]>>[]): Map<string, Set<string> | null> {
  const named = new Map<string, Set<string> | null>()
  for (const side of previews) {
    for (const [query, items] of Object.entries(side)) {
      const distinct = new Set(items)
      if (distinct.size < items.length) named.set(query, null)
      if (named.get(query) === null) continue
      const known = named.get(query) ?? new Set<string>()
      for (const item of distinct) known.add(item)
      named.set(query, known)
    }
  }
  return named
}

/**
 * A ranking as judge-next reads it: repeats removed (each item at its first
 * place, as the metrics read it), cut to `depth` or to the deepest of the
 * items `named` (itemsNamed; whole when null), without labels and
 * probabilities; and the labels of its top judgeDepth, by item.
 */
export function cutRanking(
  ranking: QueryRanking,
  depth: number | null,
  judgeDepth: number,
  named?: ReadonlySet<string> | null,
): { ranking: QueryRanking; labels: Map<string, string> } {
  const firstAt = new Map<string, number>()
  ranking.items.forEach((item, index) => {
    if (!firstAt.has(item)) firstAt.set(item, index)
  })
  const items = [...firstAt.keys()]
  let cut = depth === null || named === null ? items.length : depth
  if (named && cut < items.length) items.forEach((item, place) => (named.has(item) && place >= cut ? (cut = place + 1) : undefined))
  const kept = items.slice(0, cut)
  const labels = new Map<string, string>()
  for (const item of kept.slice(0, judgeDepth)) {
    const label = ranking.labels[firstAt.get(item)!]
    if (label) labels.set(item, label)
  }
  return { ranking: { id: ranking.id, text: ranking.text, items: kept, labels: [], error: ranking.error, durationMs: ranking.durationMs }, labels }
}

/**
 * Sends a kept evaluation's rankings to the thread as `side`'s, a page at a
 * time as the store gives them (so no one copy on main's event loop grows
 * with the evaluation), each cut (cutRanking); main keeps only the labels.
 */
export async function sendRankings(
  store: EvaluationStore,
  id: string,
  side: number,
  send: (part: JudgeNextPart) => void,
  cut: { depth: number | null; judgeDepth: number; named?: Map<string, Set<string> | null> | undefined },
): Promise<Labels> {
  const labels: Labels = new Map()
  for (let offset = 0; ; offset += MAX_RANKING_PAGE) {
    const page = await store.page(id, offset, MAX_RANKING_PAGE)
    if (!page) throw notKept(id)
    const rankings = page.rankings.map((each) => {
      const { ranking, labels: named } = cutRanking(each, cut.depth, cut.judgeDepth, cut.named?.get(each.id))
      labels.set(each.id, named)
      return ranking
    })
    send({ side, rankings })
    if (page.rankings.length < MAX_RANKING_PAGE || offset + page.rankings.length >= page.total) break
  }
  return labels
}

const notKept = (id: string) => new ExplorerError('not_found', `There is no kept evaluation with the id "${id.slice(0, 80)}".`)

/**
 * Works judge-next out on a thread of its own, started for this one request
 * (as the agreement figures are, agreement-thread.ts): `rankings` sends each
 * side's rankings ahead of the request, a page at a time.
 */
function judgeNextInThread<Result>(
  request: Omit<JudgeNextRequest, 'set'> & { set: Pick<QuerySet, 'judgments' | 'scale' | 'raters'> },
  rankings: (send: (part: JudgeNextPart) => void) => Promise<void>,
): Promise<Result> {
  const judgments = judgmentColumns(request.set.judgments)
  const message: JudgeNextRequest = { ...request, set: { judgments, scale: request.set.scale, raters: request.set.raters } }
  return answerInThread<Result>(
    { caller: __filename, source: 'judge-next-worker.ts', built: BUILT_ENTRY, what: 'What to judge next', resourceLimits: { maxOldGenerationSizeMb: 1024 } },
    message,
    { transfer: transferables(judgments), parts: rankings },
  )
}

/** The queue's entries with the name each item had in the first kept ranking that has it in its top judgeDepth. */
function withLabels(queue: readonly JudgeNextEntry[], sides: readonly Labels[]): JudgeNextEntryReply[] {
  return queue.map((entry) => ({ ...entry, label: sides.map((side) => side.get(entry.query)?.get(entry.item)).find((label) => label !== undefined) ?? null }))
}

/** The metrics to read, by their keys as the record keeps them. */
export function scoringOf(keys: readonly string[], set: QuerySet, judgeDepth: number): JudgeNextScoring {
  const metrics = parseMetrics(keys.join(','))
  if (!metrics.ok) throw new ExplorerError('validation', `The kept metrics "${keys.join(',').slice(0, 200)}" cannot be read: ${metrics.message}.`)
  return { metrics: metrics.metrics, settings: settingsOf(set), judgeDepth }
}

/** `eval:judge-next`: a kept evaluation's intervals and queue, with `set`'s judgments and settings as they are now. */
export async function evaluationJudgeNext(store: EvaluationStore, id: string, set: QuerySet, limit: number): Promise<EvaluationJudgeNextReply> {
  const head = await store.head(id)
  if (!head) throw notKept(id)
  const scoring = scoringOf(head.scored.metrics, set, head.judgeDepth)
  let labels: Labels = new Map()
  const answer = await judgeNextInThread<EvaluationJudgeNext>({ kind: 'evaluation', sides: 1, set, scoring, limit }, async (send) => {
    labels = await sendRankings(store, id, 0, send, { depth: judgeNextDepth(scoring), judgeDepth: head.judgeDepth })
  })
  return { ...answer, queue: withLabels(answer.queue, [labels]) }
}

/** `experiments:judge-next`: a kept experiment's verdicts and queue, from its sides' kept rankings, with `set`'s judgments and settings as they are now. */
export async function experimentJudgeNext(store: EvaluationStore, record: ExperimentRecord, set: QuerySet, limit: number): Promise<ExperimentJudgeNextReply> {
  const scoring = scoringOf(record.stats.metrics, set, record.judgeDepth)
  const depth = judgeNextDepth(scoring)
  const previews: Record<string, string[]>[] = []
  for (const side of record.sides) {
    const head = await store.head(side.evaluationId)
    if (!head) throw notKept(side.evaluationId)
    previews.push(head.previews)
  }
  const named = depth === null ? undefined : itemsNamed(previews)
  const labels: Labels[] = []
  const request = {
    kind: 'experiment' as const,
    sides: record.sides.length,
    set,
    scoring,
    limit,
    alpha: record.stats.alpha,
    // Its p-values are what judge-next reads of it (the per-query deltas it works out itself): those are left behind.
    stats: { ...record.stats, deltas: {}, failed: [] },
  }
  const answer = await judgeNextInThread<ExperimentJudgeNext>(request, async (send) => {
    for (const [side, { evaluationId }] of record.sides.entries()) labels.push(await sendRankings(store, evaluationId, side, send, { depth, judgeDepth: record.judgeDepth, named }))
  })
  return { ...answer, queue: withLabels(answer.queue, labels) }
}
