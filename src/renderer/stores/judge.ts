import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import { itemKey } from '../../shared/compare/item-key'
import type { QueryRequest } from '../../shared/query/model'
import { createQueue, judgeSeed, queryFailed, queryLoaded, queryLoading, toFetch, type IsRated, type JudgeQuery, type JudgeQueue } from '../../shared/relevance/judge-queue'
import type { QuerySet } from '../../shared/relevance/query-set'
import { resolveTemplate, setQueryPages } from '../../shared/relevance/set-template'
import type { ResultItem } from '../../shared/responses'
import type { TargetOverrides } from '../../shared/test-cases/case-request'
import { cancellableQuery, wasSuperseded, type QueryCall } from '../api/cancellable-query'
import { errorMessage } from '../api/explorer-client'
import { useConnectionsStore } from './connections'
import { useEvaluationsStore } from './evaluations'
import { useQuerySetsStore } from './query-sets'
import { useWorkspaceStore } from './workspace'

/** Where the walk's requests go: the request of one query, or why none can be sent. */
type Requests = { ok: true; connectionId: string; requestFor: (text: string) => QueryRequest } | { ok: false; problem: string }

/**
 * The Judge dialog's walk: the queue (shared/relevance/judge-queue.ts), and
 * its queries' results, asked for as the walk reaches them (the one shown and
 * one ahead), as the Evaluation view's target would run them and left out of
 * History. A new walk or a closed dialog cancels the older walk's queries,
 * and their answers are dropped.
 */
export const useJudgeStore = defineStore('judge', () => {
  const sets = useQuerySetsStore()
  const evaluations = useEvaluationsStore()
  const workspace = useWorkspaceStore()
  const connections = useConnectionsStore()

  const queue = shallowRef<JudgeQueue | null>(null)
  /** The set the walk was started on (its name seeds the order). */
  const walked = shallowRef<QuerySet | null>(null)
  const depth = ref(10)
  /** Why nothing can be judged (no set, no template, no connection), or null. */
  const problem = ref<string | null>(null)
  /** The results of each query, by query id then item key: what the item shown is drawn from. */
  let results = new Map<string, Map<string, ResultItem>>()
  const queries = cancellableQuery()
  /** The walk's queries: a new walk or stop() supersedes them. */
  let walk: QueryCall | null = null
  let send: Requests = { ok: false, problem: '' }

  const isRated: IsRated = (queryId, item) => sets.grades.get(queryId)?.has(item) ?? false
  const itemOf = (queryId: string, key: string): ResultItem | undefined => results.get(queryId)?.get(key)

  function requests(set: QuerySet): Requests {
    const template = resolveTemplate({ queries: workspace.queries }, set)
    if (template.error !== null || template.request === null) return { ok: false, problem: template.error ?? 'The set has no template.' }
    const connectionId = evaluations.targetConnectionId
    if (!connectionId) return { ok: false, problem: 'Choose a connection to evaluate on first: the results to judge come from it.' }
    // As an evaluation runs: moved to a connection other than the template's own, a query asks that connection's workspace.
    const own = workspace.view?.bindings.find((binding) => binding.fileConnectionId === template.connection)?.connectionId ?? null
    const moved = connectionId !== own ? connections.connections.find((connection) => connection.id === connectionId)?.workspace : undefined
    const overrides: TargetOverrides = { config: evaluations.config || undefined, workspace: moved }
    const request = template.request
    return { ok: true, connectionId, requestFor: (text) => setQueryPages(request, text, depth.value, overrides)[0]! }
  }

  /** A new walk over `walkQueries` of `set` (null: no set chosen), at the depth set before; the older walk's queries are cancelled. */
  function begin(set: QuerySet | null, walkQueries: JudgeQuery[]): void {
    walk = queries.start()
    results = new Map()
    walked.value = set
    problem.value = null
    send = set ? requests(set) : { ok: false, problem: 'Choose a query set first.' }
    if (!send.ok) {
      queue.value = null
      problem.value = send.problem
      return
    }
    queue.value = createQueue(walkQueries)
  }

  /** The walk is over (the dialog closed): answers still on their way are dropped and their requests cancelled. */
  function stop(): void {
    walk = null
    void queries.cancel()
  }

  /** Asks for the results of the queries the walk has reached (the one shown and the next with something to show). */
  function fetchAhead(): void {
    if (queue.value) for (const index of toFetch(queue.value, isRated)) void load(index)
  }

  async function load(index: number): Promise<void> {
    const on = walk
    const set = walked.value
    const query = queue.value?.queries[index]
    if (!on?.current() || !queue.value || !set || !query || !send.ok) return
    queue.value = queryLoading(queue.value, index)
    try {
      const reply = await on.send('query:run', { connectionId: send.connectionId, request: send.requestFor(query.text), keepOutOfHistory: true })
      if (!queue.value) return
      const byKey = new Map<string, ResultItem>()
      for (const item of topItems(reply.body, depth.value)) if (!byKey.has(itemKey(item))) byKey.set(itemKey(item), item)
      results.set(query.id, byKey)
      queue.value = queryLoaded(queue.value, index, [...byKey.keys()], judgeSeed(set.name, query.id), isRated)
    } catch (e) {
      if (wasSuperseded(e) || !queue.value) return
      queue.value = queryFailed(queue.value, index, errorMessage(e))
    }
  }

  return { queue, walked, depth, problem, isRated, itemOf, begin, stop, fetchAhead }
})

/** The first `depth` items of a results answer (or of results,count's first part). */
function topItems(body: unknown, depth: number): ResultItem[] {
  const page = Array.isArray(body) ? body[0] : body
  const items = (page as { items?: unknown } | null)?.items
  return Array.isArray(items) ? (items as ResultItem[]).slice(0, depth) : []
}
