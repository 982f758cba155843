import { computed, nextTick, onBeforeUnmount, onMounted, ref, shallowRef, watch } from 'vue'
import { itemKey, itemLabel, shownItem } from '../../../shared/compare/item-key'
import type { QueryRequest } from '../../../shared/query/model'
import {
  again,
  back,
  canGoBack,
  createQueue,
  current,
  judgeDepthFor,
  judgeSeed,
  next,
  progressOf,
  queryFailed,
  queryLoaded,
  queryLoading,
  toFetch,
  type IsRated,
  type JudgeQueue,
} from '../../../shared/relevance/judge-queue'
import type { QuerySet } from '../../../shared/relevance/query-set'
import { resolveTemplate, setQueryPages } from '../../../shared/relevance/set-template'
import type { ResultItem } from '../../../shared/responses'
import { detailEntries } from '../../../shared/results/detail'
import { gradeKeysText } from '../../../shared/results/table'
import type { TargetOverrides } from '../../../shared/test-cases/case-request'
import { call, errorMessage } from '../../api/explorer-client'
import { useModalDialog } from '../../composables/useModalDialog'
import { useConnectionsStore } from '../../stores/connections'
import { useEvaluationsStore } from '../../stores/evaluations'
import { useQuerySetsStore } from '../../stores/query-sets'
import { useWorkspaceStore } from '../../stores/workspace'

export interface JudgeDialogProps {
  /** The queries to judge, by id (null: every query of the set), in the set's order whatever order they come in. */
  queryIds: string[] | null
  open: boolean
}

/** Where the walk's requests go: the request of one query, or why none can be sent. */
type Requests = { ok: true; connectionId: string; requestFor: (text: string) => QueryRequest } | { ok: false; problem: string }

/** The fields of a result as the row detail lists them, without its rank and probability (they would tell the ranking). */
const HIDDEN_PATHS = new Set(['rank', 'probability'])

/**
 * The Judge dialog: the unrated items of each query's top k, one at a time,
 * for a person to grade from the keyboard. The walk (order, position,
 * counts) is shared/relevance/judge-queue.ts; here its queries' results are
 * asked for (the one shown and one ahead, as the Evaluation view's target
 * would run them, not recorded in History), each grade is saved at once
 * through the set's store, and the keys are read.
 */
export function useJudgeDialog(props: JudgeDialogProps, close: () => void) {
  const sets = useQuerySetsStore()
  const evaluations = useEvaluationsStore()
  const workspace = useWorkspaceStore()
  const connections = useConnectionsStore()

  // useModalDialog shows the dialog when `open` turns true: a dialog mounted already open turns it true once mounted.
  const mounted = ref(false)
  onMounted(() => (mounted.value = true))
  const { dialog } = useModalDialog({ open: () => props.open && mounted.value, beforeOpen: start, focus: '.judge-dialog__card' })

  const queue = shallowRef<JudgeQueue | null>(null)
  /** The set the walk was started on (its name seeds the order). */
  const walked = shallowRef<QuerySet | null>(null)
  const depth = ref(10)
  /** Why nothing can be judged (no set, no template, no connection), or null. */
  const problem = ref<string | null>(null)
  /** What the last key did, for screen readers: the item shown changes under the focus without a word otherwise. */
  const announcement = ref('')
  /** The results of each query, by query id then item key: what the item shown is drawn from. */
  let results = new Map<string, Map<string, ResultItem>>()
  /** Bumped on each opening and closing: an answer to a walk that is over is dropped. */
  let generation = 0
  const inFlight = new Set<string>()

  const isRated: IsRated = (queryId, item) => sets.grades.get(queryId)?.has(item) ?? false

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
  let send: Requests = { ok: false, problem: '' }

  /** A new walk, on each opening: the set as it is now, the queries asked for, the depth of the evaluation shown. */
  function start(): void {
    stop()
    generation++
    results = new Map()
    announcement.value = ''
    const set = sets.set
    walked.value = set
    problem.value = null
    if (!set) {
      queue.value = null
      problem.value = 'Choose a query set first.'
      return
    }
    depth.value = judgeDepthFor(evaluations.shown, set.name)
    const wanted = props.queryIds === null ? null : new Set(props.queryIds)
    // The last evaluation's top k stands in for a query's results in the counts until they come.
    const shown = evaluations.shown?.set === set.name ? evaluations.shown : null
    const queries = set.queries
      .filter((query) => wanted === null || wanted.has(query.id))
      .map((query) => {
        const ranking = shown?.rankings.find((each) => each.id === query.id && each.error === null)
        return { id: query.id, text: query.text, preview: ranking?.items.slice(0, depth.value) }
      })
    send = requests(set)
    if (!send.ok) {
      queue.value = null
      problem.value = send.problem
      return
    }
    queue.value = createQueue(queries)
  }

  /** The walk is over (closed, or started anew): answers still on their way are dropped and their requests cancelled. */
  function stop(): void {
    generation++
    for (const requestId of inFlight) void call('query:cancel', { requestId }).catch(() => undefined)
    inFlight.clear()
  }

  async function load(index: number): Promise<void> {
    const walk = queue.value
    const set = walked.value
    const query = walk?.queries[index]
    if (!walk || !set || !query || !send.ok) return
    const own = generation
    queue.value = queryLoading(walk, index)
    const requestId = crypto.randomUUID()
    inFlight.add(requestId)
    try {
      const reply = await call('query:run', { connectionId: send.connectionId, requestId, request: send.requestFor(query.text), companion: true })
      if (own !== generation || !queue.value) return
      const items = topItems(reply.body, depth.value)
      const byKey = new Map<string, ResultItem>()
      for (const item of items) if (!byKey.has(itemKey(item))) byKey.set(itemKey(item), item)
      results.set(query.id, byKey)
      queue.value = queryLoaded(queue.value, index, [...byKey.keys()], judgeSeed(set.name, query.id), isRated)
    } catch (e) {
      if (own !== generation || !queue.value) return
      queue.value = queryFailed(queue.value, index, errorMessage(e))
    } finally {
      inFlight.delete(requestId)
    }
  }

  // The query shown and the next with something to show are asked for as the walk reaches them.
  watch(queue, (walk) => {
    if (!walk || !props.open) return
    for (const index of toFetch(walk, isRated)) void load(index)
  })
  watch(
    () => props.open,
    (open) => {
      if (!open) stop()
    },
  )
  onBeforeUnmount(stop)

  const scale = computed(() => sets.scale)
  const progress = computed(() => (queue.value ? progressOf(queue.value, isRated, depth.value) : null))
  const position = computed(() => (queue.value ? current(queue.value) : null))

  /** The item shown: its query, its label and key, its fields, its grade if it has one. */
  const shown = computed(() => {
    const walk = queue.value
    const at = position.value
    if (!walk || at?.kind !== 'item') return null
    const query = walk.queries[at.query]!
    const item = results.get(query.id)?.get(at.key)
    const load = walk.loads[at.query]
    return {
      queryId: query.id,
      queryText: query.text,
      queryPlace: `Query ${at.query + 1} of ${walk.queries.length}`,
      itemPlace: load?.state === 'ready' ? `item ${at.item + 1} of ${load.order.length} to judge` : '',
      key: at.key,
      name: shownItem(at.key, item ? itemLabel(item) : undefined),
      entries: item ? detailEntries(item).filter((entry) => !HIDDEN_PATHS.has(entry.path)) : [],
      grade: sets.grades.get(query.id)?.get(at.key) ?? null,
    }
  })

  /** The query whose results are on their way, while the walk waits for them. */
  const fetching = computed(() => {
    const walk = queue.value
    const at = position.value
    return walk && at?.kind === 'fetching' ? (walk.queries[at.query] ?? null) : null
  })
  const atEnd = computed(() => position.value?.kind === 'end')
  /** Nothing unrated is left in the top k of any query (failed ones aside). */
  const allRated = computed(() => progress.value !== null && progress.value.pending === 0 && progress.value.left === 0)
  const progressText = computed(() => {
    const counts = progress.value
    return counts ? `${counts.rated.toLocaleString('en-US')} of ${counts.total.toLocaleString('en-US')} rated` : ''
  })
  const progressValue = computed(() => progress.value?.rated ?? 0)
  // A <progress> with max 0 reads as indeterminate: an empty walk shows an empty bar instead.
  const progressMax = computed(() => Math.max(1, progress.value?.total ?? 0))
  /** The queries not fetched yet count k items each, none of them known rated: said beside the count. */
  const pendingText = computed(() => {
    const pending = progress.value?.pending ?? 0
    return pending === 0 ? '' : `· ${pending} ${pending === 1 ? 'query' : 'queries'} still to fetch`
  })
  const doneText = computed(() => `All items in the top ${depth.value} of these queries are rated.`)
  const skippedText = computed(() => {
    const left = progress.value?.left ?? 0
    return `Every item has been shown; ${left} skipped ${left === 1 ? 'item is' : 'items are'} still unrated.`
  })
  const failedText = computed(() => {
    const failed = progress.value?.queries.filter((query) => query.state === 'failed').length ?? 0
    return failed === 0 ? '' : `${failed} ${failed === 1 ? 'query' : 'queries'} could not be fetched: see the list.`
  })

  /** Each query's line in the list of what is left. */
  const queryRows = computed(() => {
    const counts = progress.value
    const at = position.value
    if (!counts) return []
    return counts.queries.map((query, index) => ({
      id: query.id,
      text: query.text,
      current: at !== null && at.kind !== 'end' && at.query === index,
      state: query.state,
      note: queryNote(query.state, query.unrated, query.previewed, query.error),
    }))
  })

  /** The grade buttons: a digit key for grades 0–9, shown on the button (its name reads "2 Good" all the same). */
  const grades = computed(() =>
    scale.value.map((step) => ({ grade: step.grade, label: step.label, text: `${step.grade} ${step.label}`, key: step.grade <= 9 ? String(step.grade) : null })),
  )
  const keysText = computed(() => {
    const digits = gradeKeysText(scale.value)
    return `${digits ? `${digits} rate${digits.includes(',') || digits.includes('–') ? '' : 's'} and move on` : 'The buttons rate'}, S or → skips, ← goes back, Esc closes.`
  })

  /** Says what happened and what is shown now (the item, the wait, or the end). */
  function say(what: string): void {
    const now = shown.value
    const then = now ? `Next: ${now.name.label}, for “${now.queryText}”.` : fetching.value ? `Fetching the results of “${fetching.value.text}”.` : allRated.value ? doneText.value : 'The end of the walk.'
    announcement.value = `${what} ${then}`
  }

  function rate(grade: number): void {
    const walk = queue.value
    const item = shown.value
    if (!walk || !item || !scale.value.some((step) => step.grade === grade)) return
    // Shown at once and saved in the background; a refusal is undone by the store, with a message.
    void sets.rate(item.queryId, item.key, grade)
    queue.value = next(walk, isRated)
    say(`Rated ${item.name.label} ${grades.value.find((step) => step.grade === grade)?.text ?? grade}.`)
  }

  function skip(): void {
    const walk = queue.value
    const item = shown.value
    if (!walk || !item) return
    queue.value = next(walk, isRated)
    say(`Skipped ${item.name.label}.`)
  }

  function goBack(): void {
    const walk = queue.value
    if (!walk || !canGoBack(walk)) return
    queue.value = back(walk)
    const item = shown.value
    announcement.value = item ? `Back to ${item.name.label}, for “${item.queryText}”${item.grade === null ? '' : `, rated ${item.grade}`}.` : ''
  }

  function judgeSkipped(): void {
    const walk = queue.value
    if (!walk) return
    queue.value = again(walk, isRated)
    say('From the first query again, through the items skipped.')
  }

  const backable = computed(() => (queue.value ? canGoBack(queue.value) : false))

  /** The dialog's keys, wherever the focus is in it: a grade's digit, S or →, ←. Esc is the dialog's own (cancel). */
  function onKeydown(event: KeyboardEvent): void {
    if (event.ctrlKey || event.altKey || event.metaKey) return
    if (/^[0-9]$/.test(event.key)) {
      const grade = Number(event.key)
      if (!scale.value.some((step) => step.grade === grade)) return
      event.preventDefault()
      rate(grade)
    } else if (event.key === 's' || event.key === 'S' || event.key === 'ArrowRight') {
      event.preventDefault()
      skip()
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault()
      goBack()
    }
  }

  // A button that goes away (Judge the skipped items) takes the focus with it: back to the card, where the keys work.
  watch(queue, async () => {
    await nextTick()
    const element = dialog.value
    if (element?.open && !element.contains(document.activeElement)) element.querySelector<HTMLElement>('.judge-dialog__card')?.focus()
  })

  return {
    dialog, problem, progressText, progressValue, progressMax, pendingText, shown, fetching, atEnd, allRated, doneText, skippedText, failedText, queryRows,
    grades, keysText, announcement, backable, depth, rate, skip, goBack, judgeSkipped, onKeydown, close,
  }
}

/** The first `depth` items of a results answer (or of results,count's first part). */
function topItems(body: unknown, depth: number): ResultItem[] {
  const page = Array.isArray(body) ? body[0] : body
  const items = (page as { items?: unknown } | null)?.items
  return Array.isArray(items) ? (items as ResultItem[]).slice(0, depth) : []
}

/** A query's line: how many of its top k are left, or why that is not known. */
function queryNote(state: string, unrated: number | null, previewed: boolean, error: string | null): string {
  if (state === 'failed') return `failed: ${error ?? ''}`
  if (unrated === null) return state === 'loading' ? 'fetching…' : 'not fetched yet'
  const left = unrated === 0 ? 'all rated' : `${unrated} left`
  return previewed ? `${left}, as last evaluated` : left
}
