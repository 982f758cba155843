import { storeToRefs } from 'pinia'
import { computed, ref, watch } from 'vue'
import { JUDGE_SCOPES, MAX_BUDGET_CALLS, MAX_BUDGET_TOKENS } from '../../../shared/ipc/judge-contract'
import { MAX_JUDGE_CONCURRENCY, MAX_JUDGE_DEPTH, type Judge } from '../../../shared/relevance/llm-judge'
import { useConnectionsStore } from '../../stores/connections'
import { useEvaluationsStore } from '../../stores/evaluations'
import { DEFAULT_BUDGET_CALLS, DEFAULT_NEXT_PAIRS, MAX_NEXT_PAIRS, useLlmJudgesStore, type JudgeScope } from '../../stores/llm-judges'
import { useQuerySetsStore } from '../../stores/query-sets'
import type { FieldOption } from '../controls/field-options'

const SCOPE_LABELS: Record<JudgeScope, string> = {
  ungraded: 'Ungraded by it',
  stale: 'Ungraded and stale',
  all: 'All',
}

/** What a run judges: each query's top K, or the first N pairs of the evaluation shown's What to judge next queue. */
export type JudgeWhat = 'top' | 'next'

const count = (value: number): string => value.toLocaleString('en-US')
const plural = (value: number, one: string, many: string): string => `${count(value)} ${value === 1 ? one : many}`

/** A whole number in [min, max] from a number box, or a problem in words; '' is `empty` (undefined: not given). */
function wholeNumber(value: number | '', label: string, min: number, max: number, required: boolean): { ok: true; value: number | undefined } | { ok: false; message: string } {
  if (value === '' || value === null) return required ? { ok: false, message: `${label}: required.` } : { ok: true, value: undefined }
  if (!Number.isInteger(value) || value < min || value > max) return { ok: false, message: `${label}: a whole number from ${count(min)} to ${count(max)}.` }
  return { ok: true, value }
}

/**
 * Judging the Evaluation view's set with the chosen judge: each query's top
 * results, or the first pairs of What to judge next of the evaluation
 * Figures shows (the unjudged pairs that could move its figures most, as
 * its Judge next walks them); the depth, which
 * items (not graded by it, also the stale, or all), the budget (calls
 * required, tokens where the provider reports usage) and how many at a
 * time; Estimate (a dry run: what the run would cost, what the cache has,
 * what is stale) before Judge; the progress, Cancel, the end in words (a
 * budget reached is said plainly, not as an error), and the failures with
 * their reason and Retry failed.
 */
export function useJudgeRunPanel(props: { judge: Judge }) {
  const store = useLlmJudgesStore()
  const sets = useQuerySetsStore()
  const { run, running, dryRun, estimate, error, gradingRun, gradingStarted } = storeToRefs(store)

  const depth = ref<number | ''>(props.judge.depth)
  const scope = ref<JudgeScope>('ungraded')
  const budgetCalls = ref<number | ''>(DEFAULT_BUDGET_CALLS)
  const budgetTokens = ref<number | ''>('')
  const concurrency = ref<number | ''>(props.judge.concurrency)
  const problem = ref<string | null>(null)
  const what = ref<JudgeWhat>('top')
  const pairs = ref<number | ''>(DEFAULT_NEXT_PAIRS)
  // Another judge: its own depth and concurrency.
  watch(() => props.judge.name, () => {
    depth.value = props.judge.depth
    concurrency.value = props.judge.concurrency
  })

  // The results judged are those the Evaluation view evaluates: its connection and config (Figures' "Evaluate on").
  const evaluations = useEvaluationsStore()
  const connections = useConnectionsStore()
  const target = computed(() => {
    const connectionId = evaluations.targetConnectionId
    return connectionId ? { connectionId, ...(evaluations.config ? { config: evaluations.config } : {}) } : undefined
  })
  const targetText = computed(() => {
    const found = target.value
    if (!found) return "the set's template's own connection"
    const name = connections.connections.find((connection) => connection.id === found.connectionId)?.name ?? found.connectionId
    return `${name}, ${found.config ? `config ${found.config}` : "the template's own config"}`
  })

  /** The kept evaluation Figures shows, when it is of this set (as its What to judge next is asked: useEvaluationView). */
  const shownEvaluation = computed(() => {
    const shown = evaluations.shown
    return shown && sets.set && shown.set === sets.set.name ? shown : null
  })
  // The queue is the evaluation's: with none shown (another set chosen, its evaluation gone) the run is of each query's top again.
  watch(shownEvaluation, (shown) => {
    if (!shown) what.value = 'top'
  })
  const nextDescription = computed(() => {
    const shown = shownEvaluation.value
    if (!shown) return 'Evaluate the set first: the queue is worked out from the kept evaluation Figures shows.'
    return `The unjudged pairs that could move its figures most, on ${shown.targetText}, as its Judge next walks them.`
  })
  const whatText = computed(() => {
    const shown = shownEvaluation.value
    if (what.value === 'next' && shown) return `the first ${typeof pairs.value === 'number' ? count(pairs.value) : 'N'} pairs of What to judge next of the evaluation shown, fetched on ${shown.targetText}`
    return `each query's top results on ${targetText.value} (as Figures evaluates them: choose the connection and config there)`
  })

  const scopeOptions: FieldOption<JudgeScope>[] = JUDGE_SCOPES.map((value) => ({ value, label: SCOPE_LABELS[value] }))
  const setName = computed(() => sets.set?.name ?? null)
  const canStart = computed(() => !running.value && setName.value !== null && (sets.set?.queries.length ?? 0) > 0)

  /** The job running, whichever judge and set it is of: one runs at a time, so it is shown (and can be cancelled) from any choice. */
  const shownRun = computed(() => (running.value ? run.value : null))
  /** Whose run it is, in words: "demo is judging World cities". */
  const runWho = computed(() => {
    const current = shownRun.value
    return current ? `${current.judge} is ${dryRun.value ? 'estimating' : 'judging'} ${current.set}` : ''
  })
  /** Whether the run shown is of another judge or set than this panel's: then its judge and set are named beside its progress. */
  const runElsewhere = computed(() => {
    const current = shownRun.value
    return current !== null && (current.judge !== props.judge.name || current.set !== setName.value)
  })
  /** Why Estimate and Judge are disabled, when they are. */
  const startWhy = computed(() => {
    if (shownRun.value) return `${runWho.value}: wait for it or Cancel.`
    if (setName.value === null) return 'Choose a set first.'
    if ((sets.set?.queries.length ?? 0) === 0) return 'The set has no queries.'
    return ''
  })

  function choice() {
    const shown = what.value === 'next' ? shownEvaluation.value : null
    const checks = [
      // A queue's run fetches as deep as its pairs' ranks (main works that out): the depth is not asked for then. Retry failed
      // fetches the failed pairs' queries again without the queue, so it goes as deep as the evaluation ranked.
      shown ? { ok: true as const, value: Math.min(MAX_JUDGE_DEPTH, shown.depth) } : wholeNumber(depth.value, 'Depth', 1, MAX_JUDGE_DEPTH, true),
      wholeNumber(budgetCalls.value, 'Budget, calls', 1, MAX_BUDGET_CALLS, true),
      wholeNumber(budgetTokens.value, 'Budget, tokens', 1, MAX_BUDGET_TOKENS, false),
      wholeNumber(concurrency.value, 'Concurrency', 1, MAX_JUDGE_CONCURRENCY, true),
    ] as const
    const limit = shown ? wholeNumber(pairs.value, 'Pairs', 1, MAX_NEXT_PAIRS, true) : { ok: true as const, value: undefined }
    const failed = [...checks, limit].find((check) => !check.ok)
    if (failed && !failed.ok) return { ok: false as const, message: failed.message }
    const [d, calls, tokens, c] = checks.map((check) => (check.ok ? check.value : undefined))
    // The queue's items are those of the evaluation's rankings: fetched where it ran, not where Figures would evaluate next.
    const next = shown && limit.ok ? { next: { from: 'evaluation' as const, id: shown.id, limit: limit.value! }, target: shown.target ?? undefined } : { target: target.value }
    return { ok: true as const, choice: { depth: d!, scope: scope.value, budgetCalls: calls!, budgetTokens: tokens, concurrency: c!, ...next } }
  }

  async function begin(dry: boolean): Promise<void> {
    const built = choice()
    problem.value = built.ok ? null : built.message
    if (!built.ok || !setName.value) return
    await store.start(props.judge.name, setName.value, built.choice, dry)
  }

  /** The estimate of this judge, set, scope and depth or queue (another choice is another estimate, not shown). */
  const shownEstimate = computed(() => {
    const found = estimate.value
    if (!found || found.judge !== props.judge.name || found.set !== setName.value || found.scope !== scope.value) return null
    const shown = what.value === 'next' ? shownEvaluation.value : null
    const same = shown ? found.next?.id === shown.id && found.next.limit === pairs.value : !found.next && found.depth === depth.value
    return same ? found.estimate : null
  })
  const estimateText = computed(() => {
    const found = shownEstimate.value
    if (!found) return ''
    const parts = [found.text, `${count(found.cached)} from the cache`, `${count(found.stale)} stale`, `${count(found.current)} already graded`]
    return `${parts.join(' · ')}.`
  })
  /** The grades of this judge made under another prompt, model or item content: the estimate tells, when there is one. */
  const staleText = computed(() => {
    const stale = shownEstimate.value?.stale ?? 0
    return stale > 0 && scope.value === 'ungraded' ? `${plural(stale, 'grade is', 'grades are')} stale (another prompt, model or item content): choose Items "${SCOPE_LABELS.stale}" to grade them again.` : ''
  })

  const estimating = computed(() => running.value && dryRun.value)
  const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`
  /** How far the bar is: the queries fetched before grading (main counts them then), the items graded while grading. */
  const progressValue = computed(() => {
    const current = shownRun.value
    if (!current) return { value: 0, max: 0 }
    return current.phase === 'judging' ? { value: current.graded + current.cached, max: current.total } : { value: current.done, max: current.total }
  })
  const progressText = computed(() => {
    const current = shownRun.value
    if (!current) return ''
    // Before grading main counts the queries whose results are fetched (done of total): said as such, in the phase's words.
    if (current.phase !== 'judging') {
      const phase = current.total > 0 ? `${capitalised(current.phase)}: ${count(current.done)} of ${plural(current.total, 'query', 'queries')}` : `${capitalised(current.phase)}…`
      return dryRun.value ? `Estimating: ${phase}` : phase
    }
    const tokens = current.tokens.input + current.tokens.output
    return `${count(current.graded + current.cached)} of ${count(current.total)} graded · ${plural(current.calls, 'call', 'calls')} · ${count(tokens)} tokens${current.cached ? ` · ${count(current.cached)} from the cache` : ''}`
  })
  /** The last grading run, when it is this judge's on this set (another set's end and failures are not this one's). */
  const endedRun = computed(() => {
    const current = gradingRun.value
    return current && current.state !== 'running' && current.judge === props.judge.name && current.set === setName.value ? current : null
  })
  /** How the run ended, in words; a budget reached is the run doing as told, not a failure. */
  const endText = computed(() => {
    const current = endedRun.value
    if (!current || current.state === 'failed') return ''
    // Cancelled before grading: nothing was planned, so no count of what is left; main says where it stopped.
    if (current.state === 'cancelled' && current.phase !== 'judging' && current.phase !== 'done' && current.message) return current.message
    const graded = current.graded + current.cached
    const failed = current.failedCount > 0 ? `, ${count(current.failedCount)} failed` : ''
    // Main's notes (failures of the earlier run not kept, few-shot examples' results not fetched): its message holds them in brackets.
    const notes = (current.message?.match(/\([^()]*\)/g) ?? []).map((note) => ` ${note}`).join('')
    if (current.stoppedByBudget) {
      const budget = gradingStarted.value?.choice
      const tokensReached = budget?.budgetTokens !== undefined && current.calls < budget.budgetCalls
      const limit = tokensReached ? `${count(budget!.budgetTokens!)} tokens` : `${count(budget?.budgetCalls ?? current.calls)} calls`
      return `Stopped at the budget of ${limit}: ${count(graded)} graded, ${count(current.left)} left${failed}.${notes}`
    }
    if (current.state === 'cancelled') return `Cancelled: ${count(graded)} graded, ${count(current.left)} left${failed}.${notes}`
    const cached = current.cached > 0 ? ` (${count(current.cached)} from the cache)` : ''
    return `Done: ${count(graded)} graded${cached}${failed}, ${plural(current.calls, 'call', 'calls')}, ${count(current.tokens.input + current.tokens.output)} tokens.${notes}`
  })
  const texts = computed(() => new Map((sets.set?.queries ?? []).map((query) => [query.id, query.text])))
  const failures = computed(() => {
    const current = endedRun.value
    if (!current) return []
    return current.failures.map((failure) => ({ key: `${failure.query} ${failure.item}`, query: failure.query, text: texts.value.get(failure.query) ?? failure.query, item: failure.item, reason: failure.reason }))
  })
  const failuresCaption = computed(() => {
    const total = endedRun.value?.failedCount ?? 0
    return failures.value.length < total ? `Failures: the first ${count(failures.value.length)} of ${count(total)}` : `Failures (${count(total)})`
  })
  const canRetry = computed(() => !running.value && (endedRun.value?.failedCount ?? 0) > 0)

  return {
    targetText, what, whatText, pairs, maxPairs: MAX_NEXT_PAIRS, nextAvailable: computed(() => shownEvaluation.value !== null), nextDescription, depth, scope, scopeOptions, budgetCalls, budgetTokens, concurrency, problem, error, running, estimating, canStart, setName,
    startWhy, shownRun, runWho, runElsewhere, progressValue, estimateText, staleText, progressText, endText, failures, failuresCaption, canRetry,
    estimate: () => begin(true), judge: () => begin(false), cancel: () => store.cancel(), retry: () => store.retryFailed(),
  }
}
