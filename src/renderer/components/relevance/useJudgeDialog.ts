import { storeToRefs } from 'pinia'
import { computed, nextTick, onBeforeUnmount, onMounted, ref, watch } from 'vue'
import { itemLabel, shownItem } from '../../../shared/compare/item-key'
import { again, back, canGoBack, current, judgeDepthFor, next, pairWalk, progressOf } from '../../../shared/relevance/judge-queue'
import { detailEntries } from '../../../shared/results/detail'
import { gradeKeysText } from '../../../shared/results/table'
import type { NamedPair } from '../../composables/useJudgeNext'
import { useModalDialog } from '../../composables/useModalDialog'
import { useEvaluationsStore } from '../../stores/evaluations'
import { useJudgeStore } from '../../stores/judge'
import { useQuerySetsStore } from '../../stores/query-sets'

export interface JudgeDialogProps {
  /** The queries to judge, by id (null: every query of the set), in the set's order whatever order they come in. */
  queryIds: string[] | null
  open: boolean
  /**
   * Judge next: the (query, item) pairs of What to judge next, in its order
   * (grouped by query, shuffled within one as always), walked in place of
   * `queryIds`' whole top k.
   */
  pairs?: readonly NamedPair[] | null | undefined
}

/** The fields of a result as the row detail lists them, without its rank and probability (they would tell the ranking). */
const HIDDEN_PATHS = new Set(['rank', 'probability'])

/**
 * The Judge dialog: the unrated items of each query's top k, one at a time,
 * for a person to grade from the keyboard. The walk (order, position,
 * counts) is shared/relevance/judge-queue.ts and its queries' results the
 * judge store's; here the walk starts on each opening, each grade is saved
 * at once through the set's store, and the keys are read.
 */
export function useJudgeDialog(props: JudgeDialogProps, close: () => void) {
  const sets = useQuerySetsStore()
  const evaluations = useEvaluationsStore()

  // useModalDialog shows the dialog when `open` turns true: a dialog mounted already open turns it true once mounted.
  const mounted = ref(false)
  onMounted(() => (mounted.value = true))
  const { dialog } = useModalDialog({ open: () => props.open && mounted.value, beforeOpen: start, focus: '#rater-name-input, .judge-dialog__card' })

  const judge = useJudgeStore()
  const { queue, depth, problem } = storeToRefs(judge)
  /** What the last key did, for screen readers: the item shown changes under the focus without a word otherwise. */
  const announcement = ref('')
  const isRated = judge.isRated

  /** A new walk, on each opening: the set as it is now, the queries asked for, the depth of the evaluation shown. */
  function start(): void {
    announcement.value = ''
    if (!sets.rater) void sets.loadRater()
    const set = sets.set
    if (!set) return judge.begin(null, [])
    depth.value = judgeDepthFor(evaluations.shown, set.name)
    if (props.pairs) {
      const texts = new Map(set.queries.map((query) => [query.id, query.text]))
      return judge.begin(set, pairWalk(props.pairs, (id) => texts.get(id)))
    }
    const wanted = props.queryIds === null ? null : new Set(props.queryIds)
    // The last evaluation's top k stands in for a query's results in the counts until they come.
    const shown = evaluations.shown?.set === set.name ? evaluations.shown : null
    const queries = set.queries
      .filter((query) => wanted === null || wanted.has(query.id))
      .map((query) => {
        const preview = shown ? evaluations.previewOf(query.id) : undefined
        return { id: query.id, text: query.text, preview: preview?.slice(0, depth.value) }
      })
    judge.begin(set, queries)
  }

  // The query shown and the next with something to show are asked for as the walk reaches them.
  watch(queue, (walk) => {
    if (walk && props.open) judge.fetchAhead()
  })
  watch(
    () => props.open,
    (open) => {
      if (!open) judge.stop()
    },
  )
  onBeforeUnmount(judge.stop)

  const scale = computed(() => sets.scale)
  const progress = computed(() => (queue.value ? progressOf(queue.value, isRated, depth.value) : null))
  const position = computed(() => (queue.value ? current(queue.value) : null))

  /** Judge next's items by query and key: the name the kept ranking gave each, for one the results fetched now do not hold. */
  const pairLabels = computed(() => new Map((props.pairs ?? []).map((pair) => [`${pair.query}\u0000${pair.item}`, pair.label ?? undefined])))

  /** The item shown: its query, its label and key, its fields, its grade if it has one. */
  const shown = computed(() => {
    const walk = queue.value
    const at = position.value
    if (!walk || at?.kind !== 'item') return null
    const query = walk.queries[at.query]!
    const item = judge.itemOf(query.id, at.key)
    const load = walk.loads[at.query]
    return {
      queryId: query.id,
      queryText: query.text,
      queryPlace: `Query ${at.query + 1} of ${walk.queries.length}`,
      itemPlace: load?.state === 'ready' ? `item ${at.item + 1} of ${load.order.length} to judge` : '',
      key: at.key,
      name: shownItem(at.key, item ? itemLabel(item) : pairLabels.value.get(`${query.id}\u0000${at.key}`)),
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
  const doneText = computed(() => (props.pairs ? 'Every item of What to judge next is rated.' : `All items in the top ${depth.value} of these queries are rated.`))
  /** The list's title: what its counts are of. */
  const listTitle = computed(() => (props.pairs ? 'Unrated of What to judge next' : `Unrated in each top ${depth.value}`))
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
      // Judge next's counts are of its own pairs, known from the start: not an evaluation's preview.
      note: queryNote(query.state, query.unrated, query.previewed && !props.pairs, query.error),
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

  /** The person has said whose grades these are (once, kept): until then the dialog asks their name and shows no item. */
  const raterAsked = computed(() => sets.rater?.chosen === true)

  /** The dialog's keys, wherever the focus is in it: a grade's digit, S or →, ←. Esc is the dialog's own (cancel). */
  function onKeydown(event: KeyboardEvent): void {
    if (event.ctrlKey || event.altKey || event.metaKey) return
    // The rater's name field takes its own keys; and nothing is rated before the person has said who they are.
    if (event.target instanceof HTMLInputElement || !raterAsked.value) return
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

  // A button that goes away (Judge the skipped items, the rater's name form) takes the focus with it: back to the card, where the keys work.
  watch([queue, raterAsked], async () => {
    await nextTick()
    const element = dialog.value
    if (element?.open && !element.contains(document.activeElement)) element.querySelector<HTMLElement>('.judge-dialog__card')?.focus()
  })

  return {
    dialog, problem, progressText, progressValue, progressMax, pendingText, shown, fetching, atEnd, allRated, doneText, skippedText, failedText, queryRows,
    grades, keysText, announcement, backable, depth, rate, skip, goBack, judgeSkipped, onKeydown, close, raterAsked, listTitle,
  }
}

/** A query's line: how many of its top k are left, or why that is not known. */
function queryNote(state: string, unrated: number | null, previewed: boolean, error: string | null): string {
  if (state === 'failed') return `failed: ${error ?? ''}`
  if (unrated === null) return state === 'loading' ? 'fetching…' : 'not fetched yet'
  const left = unrated === 0 ? 'all rated' : `${unrated} left`
  return previewed ? `${left}, as last evaluated` : left
}
