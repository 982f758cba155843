import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { baselineConfig, type TargetForm } from '../../shared/compare/compare-targets'
import type { ExperimentRecord, ExperimentSummary, QueryDelta } from '../../shared/experiments/experiment-record'
import type { ReplyOf } from '../../shared/ipc/contract'
import { DEFAULT_METRICS, metricLabel, parseMetrics } from '../../shared/relevance/metrics'
import { call, errorMessage } from '../api/explorer-client'
import { useFollowedJob } from '../composables/useFollowedJob'
import { useKeptRecords } from '../composables/useKeptRecords'
import { useCompareStore } from './compare'
import { useConnectionsStore } from './connections'
import { useEvaluationsStore } from './evaluations'
import { useQuerySetsStore } from './query-sets'
import { useWorkbenchStore } from './workbench'

/** How often a running experiment is asked for its progress. */
export const EXPERIMENT_POLL_MS = 300
export const MAX_SIDES = 5

/** A side as the form holds it: a connection and a configuration ('' for the template's own). */
export interface SideForm {
  connectionId: string
  config: string
}

/**
 * The Experiments view's state: the sides (the first the baseline), depth,
 * attribution and alpha of the next experiment; the one running (progress,
 * Cancel); the one shown (its statistics, as main computed them) with the
 * comparison picked in it (other side, metric); and the kept ones of the
 * chosen set. What a view needs of a side's rankings (probability bands) is
 * figured by main over the kept rankings, which never come to the window.
 */
export const useExperimentsStore = defineStore('experiments', () => {
  const sets = useQuerySetsStore()
  const evaluations = useEvaluationsStore()
  const connections = useConnectionsStore()
  const compare = useCompareStore()
  const workbench = useWorkbenchStore()

  const sides = ref<SideForm[]>([])
  const depth = ref(100)
  const attribution = ref(true)
  const alpha = ref(0.05)
  const error = ref<string | null>(null)
  /** The comparison looked at: which other side (0 = B) and which metric. */
  const other = ref(0)
  const metric = ref<string | null>(null)
  const { shown, kept, loadKept, show } = useKeptRecords<ExperimentSummary, ExperimentRecord>({
    chosen: () => sets.chosen,
    list: (set) => call('experiments:list', { set }),
    get: (id) => call('experiments:get', { id }),
    error,
    unreadable: 'That experiment could not be read',
    onShown: () => (other.value = 0),
  })
  const followed = useFollowedJob('experiments', {
    intervalMs: EXPERIMENT_POLL_MS,
    error,
    told: ['failed', 'cancelled'],
    unreadable: "The experiment's progress could not be read",
    async ended(final) {
      if (final?.experimentId) {
        await show(final.experimentId)
        await loadKept()
      }
      // Its sides were kept as evaluations too: the Evaluation view lists them.
      await evaluations.loadKept()
    },
  })
  const { run, running, begin } = followed
  /** Stops the run shown; what ran is kept. */
  const cancel = () => followed.cancel()

  /** The sides were filled in by the app, not the user: B may still take another config once the API's are known. */
  let filledIn = false
  /** The first time, or after a side's connection went away: A the set's own connection on the baseline config, B another config of it. */
  function ensureSides(): void {
    const known = (side: SideForm) => connections.connections.some((connection) => connection.id === side.connectionId)
    if (sides.value.length >= 2 && sides.value.every(known) && !(filledIn && sides.value[0]!.config === sides.value[1]!.config)) return
    const connectionId = evaluations.targetConnectionId ?? connections.selectedId ?? ''
    const configs = connections.description?.configs ?? []
    // Not the top bar's config: Open from an evaluation may have switched it, and A stays the baseline.
    const first = baselineConfig(configs)
    sides.value = [
      { connectionId, config: first },
      { connectionId, config: configs.find((config) => config !== first) ?? first },
    ]
    filledIn = true
  }
  // The API's description (its configs) may come after the view opened: B then takes another config.
  watch(
    () => connections.description?.configs,
    () => {
      if (filledIn) ensureSides()
    },
  )
  function addSide(): void {
    filledIn = false
    if (sides.value.length >= MAX_SIDES) return
    const last = sides.value[sides.value.length - 1]
    sides.value = [...sides.value, { connectionId: last?.connectionId ?? connections.selectedId ?? '', config: last?.config ?? '' }]
  }
  function removeSide(index: number): void {
    if (sides.value.length <= 2) return
    sides.value = sides.value.filter((_, at) => at !== index)
  }

  const comparisons = computed(() => shown.value?.stats.comparisons ?? [])
  const metricKeys = computed(() => shown.value?.stats.metrics ?? [])
  const labels = computed<Record<string, string>>(() => {
    const parsed = parseMetrics(metricKeys.value.join(','))
    const specs = parsed.ok ? parsed.metrics : DEFAULT_METRICS
    return Object.fromEntries(specs.map((spec, index) => [metricKeys.value[index] ?? '', metricLabel(spec)]))
  })
  const shownMetric = computed(() => (metric.value !== null && metricKeys.value.includes(metric.value) ? metric.value : (metricKeys.value[0] ?? null)))
  const comparison = computed(() => comparisons.value.find((entry) => entry.other === other.value && entry.metric === shownMetric.value) ?? null)
  const deltas = computed<QueryDelta[]>(() => (shownMetric.value === null ? [] : (shown.value?.stats.deltas[`${other.value}:${shownMetric.value}`] ?? [])))

  /** Probability against grade over a side's kept rankings, by the set's judgments as they are now (main figures it). */
  async function sideProbability(index: number, threshold: number, share: number): Promise<ReplyOf<'eval:probability'> | null> {
    const id = shown.value?.sides[index]?.evaluationId
    if (!id) return null
    try {
      return await call('eval:probability', { id, threshold, share })
    } catch (e) {
      error.value = `That side's evaluation could not be read: ${errorMessage(e)}`
      return null
    }
  }

  async function start(): Promise<void> {
    const name = sets.chosen
    if (running.value || !name) return
    error.value = null
    await begin(
      (runId) =>
        call('experiments:start', {
          runId,
          set: name,
          sides: sides.value.map((side) => ({ connectionId: side.connectionId, ...(side.config ? { config: side.config } : {}) })),
          depth: depth.value,
          attribution: attribution.value,
          alpha: alpha.value,
        }),
      'The experiment did not start',
    )
  }

  /** One query in today's compare view: A the baseline, B the side looked at, the set's template filled with the query. */
  async function compareQuery(queryId: string): Promise<void> {
    const record = shown.value
    const a = record?.sides[0]
    const b = record?.sides[other.value + 1]
    if (!record || !a?.target || !b?.target) return
    if (!(await sets.loadInEditor(queryId, { connectionId: a.target.connectionId, config: a.target.config }))) return
    const form = (target: NonNullable<typeof a.target>): TargetForm => ({
      connectionId: target.connectionId,
      api: target.api ?? connections.api,
      config: target.config ?? 'default',
      version: target.version ?? '',
    })
    compare.a = form(a.target)
    compare.b = form(b.target)
    workbench.select('compare')
    await compare.run()
  }

  return {
    sides, depth, attribution, alpha, run, shown, kept, error, other, metric, running, comparisons, metricKeys, labels, shownMetric, comparison, deltas,
    ensureSides, addSide, removeSide, loadKept, show, sideProbability, start, cancel, compareQuery,
  }
})
