import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { EvalRunStatus } from '../../shared/ipc/contract'
import { scoreRankings, type Evaluation, type Scored } from '../../shared/relevance/evaluation'
import { notComparable, type EvaluationSummary } from '../../shared/relevance/evaluation-summary'
import { DEFAULT_METRICS, deepestK, metricKey, metricLabel, parseMetrics, type MetricSpec } from '../../shared/relevance/metrics'
import { call } from '../api/explorer-client'
import { useFollowedRun, useKeptRecords } from '../composables/useFollowedRun'
import { offerDownload } from '../files/offer-download'
import { useConnectionsStore } from './connections'
import { useQuerySetsStore } from './query-sets'
import { useWorkspaceStore } from './workspace'

/** How often a running evaluation is asked for its progress. */
export const EVAL_POLL_MS = 300
export const DEPTHS = [10, 20, 50, 100, 200, 500, 1000] as const

/**
 * The Evaluation view's runs: where the next one goes (connection, config,
 * depth), the one running (progress, Cancel), the one shown, and the kept
 * ones of the chosen set. The figures shown are scored here from the shown
 * evaluation's rankings with the set's judgments as they are now, so a
 * rating made after the run moves them at once (the kept record keeps the
 * figures of its own time).
 */
export const useEvaluationsStore = defineStore('evaluations', () => {
  const sets = useQuerySetsStore()
  const connections = useConnectionsStore()
  const workspace = useWorkspaceStore()

  const connectionId = ref<string | null>(null)
  const config = ref('')
  const depth = ref<number>(100)
  const metrics = ref<MetricSpec[]>(DEFAULT_METRICS)
  const error = ref<string | null>(null)
  const { shown, kept, loadKept, show } = useKeptRecords<EvaluationSummary, Evaluation>({
    chosen: () => sets.chosen,
    // A per-step attribution's evaluations are the template cut short: the experiment that made them shows them.
    list: async (set) => (await call('eval:list', { set })).filter((entry) => entry.step === undefined),
    get: (id) => call('eval:get', { id }),
    error,
    unreadable: 'That evaluation could not be read',
  })
  const { run, running, begin, cancel } = useFollowedRun<EvalRunStatus>({
    intervalMs: EVAL_POLL_MS,
    status: (runId) => call('eval:status', { runId }),
    cancel: (runId) => call('eval:cancel', { runId }),
    error,
    told: ['failed'],
    unreadable: "The evaluation's progress could not be read",
    async ended(final) {
      if (!final?.evaluationId) return
      await show(final.evaluationId)
      await loadKept()
    },
  })

  /** The app connection the set's template runs on (its file connection's binding), else the editor's. */
  const ownConnectionId = computed<string | null>(() => {
    const current = sets.set
    const fileConnection = current?.connection ?? workspace.queries.find((entry) => entry.name === current?.query)?.connection
    return workspace.view?.bindings.find((binding) => binding.fileConnectionId === fileConnection)?.connectionId ?? connections.selectedId
  })
  const targetConnectionId = computed(() => connectionId.value ?? ownConnectionId.value)

  const scored = computed<Scored | null>(() => {
    const evaluation = shown.value
    const current = sets.set
    if (!evaluation || !current || current.name !== evaluation.set) return evaluation?.scored ?? null
    return scoreRankings(evaluation.rankings, current, shownMetrics.value, sets.settings ?? evaluation.settings, evaluation.judgeDepth)
  })
  /** The metrics of the evaluation shown, as specs (its keys parsed back). */
  const shownMetrics = computed<MetricSpec[]>(() => {
    const keys = shown.value?.scored.metrics
    if (!keys) return metrics.value
    const parsed = parseMetrics(keys.join(','))
    return parsed.ok ? parsed.metrics : metrics.value
  })
  const labels = computed(() => Object.fromEntries(shownMetrics.value.map((spec) => [metricKey(spec), metricLabel(spec)])))
  /** The evaluation before the one shown, of the same set, and why their figures can't be set side by side. */
  const previous = computed(() => {
    const at = kept.value.findIndex((entry) => entry.id === shown.value?.id)
    return at >= 0 ? (kept.value[at + 1] ?? null) : null
  })
  const previousWhyNot = computed(() => (previous.value && shown.value ? notComparable(shown.value, previous.value) : []))

  /** Evaluates the chosen set on the chosen target to the chosen depth; progress comes by polling. */
  async function start(): Promise<void> {
    const name = sets.chosen
    const target = targetConnectionId.value
    if (running.value || !name) return
    error.value = null
    if (!target) {
      error.value = 'Choose a connection to evaluate on.'
      return
    }
    await begin(
      (runId) =>
        call('eval:start', {
          runId,
          set: name,
          target: { connectionId: target, ...(config.value ? { config: config.value } : {}) },
          depth: depth.value,
          metrics: metrics.value.map(metricKey).join(','),
        }),
      'The set was not evaluated',
    )
  }

  async function exportRun(): Promise<void> {
    if (!shown.value) return
    const reply = await call('eval:run-file', { id: shown.value.id })
    offerDownload(reply.fileName, reply.text, 'text/plain')
  }

  /** The deepest metric's k: the depth an evaluation needs for its figures to be whole. */
  const neededDepth = computed(() => deepestK(metrics.value) ?? 10)

  return {
    connectionId, config, depth, metrics, run, shown, kept, error, running, ownConnectionId, targetConnectionId, scored, shownMetrics, labels,
    previous, previousWhyNot, neededDepth, loadKept, show, start, cancel, exportRun,
  }
})
