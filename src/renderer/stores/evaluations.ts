import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { Scored } from '../../shared/relevance/evaluation'
import type { EvaluationHead } from '../../shared/relevance/evaluation-head'
import { notComparable, type EvaluationSummary } from '../../shared/relevance/evaluation-summary'
import { DEFAULT_METRICS, deepestK, metricKey, metricLabel, parseMetrics, type MetricSpec } from '../../shared/relevance/metrics'
import { call, errorMessage } from '../api/explorer-client'
import { useFollowedJob } from '../composables/useFollowedJob'
import { useKeptRecords } from '../composables/useKeptRecords'
import { openDownload } from '../files/offer-download'
import { useConnectionsStore } from './connections'
import { useQuerySetsStore } from './query-sets'
import { useWorkspaceStore } from './workspace'

/** How often a running evaluation is asked for its progress. */
export const EVAL_POLL_MS = 300
export const DEPTHS = [10, 20, 50, 100, 200, 500, 1000] as const

/**
 * The Evaluation view's runs: where the next one goes (connection, config,
 * depth), the one running (progress, Cancel), the one shown, and the kept
 * ones of the chosen set. The evaluation shown is its head (eval:get: no
 * rankings, which stay in main's database, read a page at a time). Its
 * figures are scored again by main from the kept rankings with the set's
 * judgments as they are now (eval:scored), so a rating made after the run
 * moves them as soon as main answers (the kept record keeps the figures of
 * its own time, shown until then).
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
  const { shown, kept, loadKept, show } = useKeptRecords<EvaluationSummary, EvaluationHead>({
    chosen: () => sets.chosen,
    // A per-step attribution's evaluations are the template cut short: the experiment that made them shows them.
    list: async (set) => (await call('eval:list', { set })).filter((entry) => entry.step === undefined),
    get: (id) => call('eval:get', { id }),
    error,
    unreadable: 'That evaluation could not be read',
  })
  const followed = useFollowedJob('eval', {
    intervalMs: EVAL_POLL_MS,
    error,
    told: ['failed'],
    unreadable: "The evaluation's progress could not be read",
    async ended(final) {
      if (!final?.evaluationId) return
      await show(final.evaluationId)
      await loadKept()
    },
  })
  const { run, running, begin } = followed
  /** Stops the run shown; what ran is kept. */
  const cancel = () => followed.cancel()

  /** The app connection the set's template runs on (its file connection's binding), else the editor's. */
  const ownConnectionId = computed<string | null>(() => {
    const current = sets.set
    const fileConnection = current?.connection ?? workspace.queries.find((entry) => entry.name === current?.query)?.connection
    return workspace.view?.bindings.find((binding) => binding.fileConnectionId === fileConnection)?.connectionId ?? connections.selectedId
  })
  const targetConnectionId = computed(() => connectionId.value ?? ownConnectionId.value)

  /** The shown evaluation's figures with the set's judgments and settings as they are now, as main scored them. */
  const rescored = shallowRef<{ id: string; scored: Scored } | null>(null)
  // One scoring at a time: at 3,000 queries × 1,000 it takes main's store thread seconds, so ratings made
  // meanwhile are scored together once it answers, never queued one scoring a rating.
  let scoring = false
  let again = false
  async function rescore(): Promise<void> {
    if (scoring) {
      again = true
      return
    }
    scoring = true
    try {
      do {
        again = false
        const evaluation = shown.value
        const current = sets.set
        if (!evaluation || !current || current.name !== evaluation.set) break
        try {
          const figures = await call('eval:scored', { id: evaluation.id, ...(sets.settings ? { settings: sets.settings } : {}) })
          if (shown.value?.id === evaluation.id) rescored.value = { id: evaluation.id, scored: figures }
        } catch (e) {
          error.value = `The figures could not be scored again: ${errorMessage(e)}`
        }
      } while (again)
    } finally {
      scoring = false
    }
  }
  watch([() => shown.value?.id, () => sets.set, () => sets.settings], () => void rescore(), { immediate: true })
  const scored = computed<Scored | null>(() => {
    const evaluation = shown.value
    if (!evaluation) return null
    return rescored.value?.id === evaluation.id ? rescored.value.scored : evaluation.scored
  })
  /** A query's first items in the evaluation shown (its top `judgeDepth`), which Judge shows until the query's own results come. */
  function previewOf(queryId: string): string[] | undefined {
    return shown.value?.previews[queryId]
  }
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

  /** Main writes the run file (where Electron's save dialog says, or as a one-time download in the browser host); null: cancelled. */
  async function exportRun(): Promise<{ fileName: string; queries: number } | null> {
    if (!shown.value) return null
    const reply = await call('eval:run-file', { id: shown.value.id })
    if (reply?.downloadUrl) openDownload(reply.downloadUrl, reply.fileName)
    return reply
  }

  /** The deepest metric's k: the depth an evaluation needs for its figures to be whole. */
  const neededDepth = computed(() => deepestK(metrics.value) ?? 10)

  return {
    connectionId, config, depth, metrics, run, shown, kept, error, running, ownConnectionId, targetConnectionId, scored, shownMetrics, labels,
    previous, previousWhyNot, neededDepth, loadKept, show, start, cancel, exportRun, previewOf,
  }
})
