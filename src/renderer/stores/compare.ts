import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { COMPARE_DEPTHS, type CompareDepth } from '../../shared/compare/comparison'
import { comparisonCsv, comparisonFileName } from '../../shared/compare/comparison-csv'
import { compareRequest, configPreset, connectionsPreset, runTarget, targetProblems, type TargetForm } from '../../shared/compare/compare-targets'
import { problemsForEditor } from '../../shared/chain/editor-chain'
import type { Comparison } from '../../shared/ipc/contract'
import type { QueryRequest } from '../../shared/query/model'
import { validateRequest } from '../../shared/query/validate'
import { cancellableQuery, wasSuperseded } from '../api/cancellable-query'
import { call, ExplorerClientError, errorMessage } from '../api/explorer-client'
import { useConnectionsStore } from './connections'
import { useChainStore } from './chain'

/** idle: nothing compared yet; running: both sides on their way; done / error / cancelled: how the last one ended. */
export type ComparePhase = 'idle' | 'running' | 'done' | 'error' | 'cancelled'

export { COMPARE_DEPTHS, type CompareDepth }

const blank = (): TargetForm => ({ connectionId: '', api: '', config: 'default', version: '' })
const describedKey = (connectionId: string, api: string) => `${connectionId}\n${api}`

/**
 * The compare mode: whether it shows, its two targets and depth, and the last
 * comparison of the editor's chain on them. The comparison runs in the main
 * process (`compare:run`), both sides at once; `query:cancel` with its id
 * stops both.
 */
export const useCompareStore = defineStore('compare', () => {
  const connections = useConnectionsStore()
  const editor = useChainStore()

  const open = ref(false)
  const a = ref<TargetForm>(blank())
  const b = ref<TargetForm>(blank())
  const depth = ref<CompareDepth>(10)
  const phase = ref<ComparePhase>('idle')
  const result = shallowRef<Comparison | null>(null)
  /** Why the comparison was not sent (a target or the chain), or why it failed as a whole; a side's own error is in `result`. */
  const problems = ref<string[]>([])
  const error = ref<string | null>(null)
  const startedAt = ref<number | null>(null)
  /** What the comparison shown was run with, to say when the chain, targets or depth changed since. */
  const ranKey = ref<string | null>(null)

  /** Configurations each connection's API describes (null: it has no description), read once per run of the app. */
  const described = ref<Record<string, string[] | null>>({})
  /** Every run and cancel starts anew: an answer to an older comparison is dropped, and Cancel stops both sides in main. */
  const runs = cancellableQuery()

  const running = computed(() => phase.value === 'running')

  /** The current connection and API as a target: what the top bar shows. */
  function currentTarget(): TargetForm {
    return { connectionId: connections.selectedId ?? '', api: connections.api, config: connections.config || 'default', version: '' }
  }

  /** The configurations offered for a target: its API's description, the top bar's when it is the same API, and what the target names. */
  function configsFor(form: TargetForm): string[] {
    const fromBar = form.connectionId === connections.selectedId && form.api === connections.api ? connections.description?.configs : undefined
    const known = fromBar ?? described.value[describedKey(form.connectionId, form.api)] ?? []
    return [...new Set([...known, form.config].filter(Boolean))]
  }

  /** The APIs known on a connection: its own, the top bar's when it is the current one, and those of connections to the same workspace. */
  function knownApis(connectionId: string): string[] {
    const connection = connections.connections.find((c) => c.id === connectionId)
    if (!connection) return []
    const sameWorkspace = connections.connections.filter((c) => c.queryUrl === connection.queryUrl && c.workspace === connection.workspace).map((c) => c.api)
    const bar = connectionId === connections.selectedId ? [connections.api] : []
    return [...new Set([connection.api, ...bar, ...sameWorkspace].filter(Boolean))].sort()
  }

  /** The APIs the API box of a target offers: those known on its connection, and the one it names. */
  function apisFor(form: TargetForm): string[] {
    return [...new Set([...knownApis(form.connectionId), form.api].filter(Boolean))].sort()
  }

  /** Reads the configurations a target's API describes, once; a failure only means none are offered (any name can be typed). */
  async function describeTarget(form: TargetForm): Promise<void> {
    const key = describedKey(form.connectionId, form.api)
    if (!form.connectionId || !form.api || key in described.value) return
    if (form.connectionId === connections.selectedId && form.api === connections.api && connections.description) return
    try {
      const description = await call('api:describe', { connectionId: form.connectionId, api: form.api })
      described.value = { ...described.value, [key]: description?.configs ?? null }
    } catch {
      described.value = { ...described.value, [key]: null }
    }
  }

  const presetByConfig = computed(() => configPreset(currentTarget(), configsFor(currentTarget())))
  const presetByConnection = computed(() => connectionsPreset(currentTarget(), connections.connections))

  function applyPreset(preset: { a: TargetForm; b: TargetForm } | null): void {
    if (!preset) return
    a.value = { ...preset.a }
    b.value = { ...preset.b }
    void describeTarget(a.value)
    void describeTarget(b.value)
  }
  const compareConfigs = () => applyPreset(presetByConfig.value)
  const compareConnections = () => applyPreset(presetByConnection.value)

  function setTarget(side: 'a' | 'b', change: Partial<TargetForm>): void {
    const target = side === 'a' ? a : b
    const next = { ...target.value, ...change }
    // Another connection keeps the API when it knows it (staging and production of one service), else brings its own.
    if (change.connectionId !== undefined && change.api === undefined && change.connectionId !== target.value.connectionId) {
      const connection = connections.connections.find((c) => c.id === change.connectionId)
      if (connection && connection.api && !knownApis(connection.id).includes(next.api)) next.api = connection.api
    }
    target.value = next
    void describeTarget(next)
  }

  /** Opening the first time, or after the targets' connection went away, starts from the current connection: config against config if it can. */
  function ensureTargets(): void {
    const known = (form: TargetForm) => connections.connections.some((c) => c.id === form.connectionId)
    if (known(a.value) && known(b.value)) return
    const current = currentTarget()
    applyPreset(presetByConfig.value ?? presetByConnection.value ?? { a: current, b: { ...current } })
  }

  function toggle(): void {
    open.value = !open.value
    if (open.value) ensureTargets()
  }

  /** The request both sides run: the editor's chain as results, its options, without the top bar's configuration. */
  function chainRequest(): QueryRequest {
    return compareRequest(editor.request('results', 0), editor.version !== undefined)
  }

  const requestKey = computed(() => {
    try {
      const request = chainRequest()
      return JSON.stringify([request, runTarget(a.value, request.api), runTarget(b.value, request.api), depth.value])
    } catch {
      return null
    }
  })
  /** The comparison shown is of another chain, targets or depth than those now in the form. */
  const stale = computed(() => result.value !== null && ranKey.value !== requestKey.value)

  async function run(): Promise<void> {
    if (running.value) return
    const built = chainRequest()
    const chain = problemsForEditor(validateRequest(built, { description: connections.description }), editor.chain).map((problem) => problem.message)
    const found = [...targetProblems('A', a.value, connections.connections), ...targetProblems('B', b.value, connections.connections), ...chain]
    problems.value = found
    error.value = null
    if (found.length > 0) {
      phase.value = 'error'
      return
    }
    const comparison = runs.start()
    const key = requestKey.value
    phase.value = 'running'
    startedAt.value = performance.now()
    try {
      const reply = await comparison.send('compare:run', {
        request: built,
        a: runTarget(a.value, built.api),
        b: runTarget(b.value, built.api),
        depth: depth.value,
      })
      result.value = reply
      ranKey.value = key
      phase.value = 'done'
    } catch (e) {
      if (wasSuperseded(e)) return
      if (e instanceof ExplorerClientError && e.error.code === 'cancelled') {
        phase.value = 'cancelled'
        return
      }
      error.value = errorMessage(e)
      phase.value = 'error'
    } finally {
      if (comparison.current()) startedAt.value = null
    }
  }

  /** Stops both sides; the comparison shown before stays. */
  async function cancel(): Promise<void> {
    if (!running.value) return
    const stopping = runs.cancel()
    phase.value = 'cancelled'
    startedAt.value = null
    await stopping
  }

  /** The comparison shown, as CSV: its file name and text. */
  function csv(): { fileName: string; text: string } | null {
    return result.value ? { fileName: comparisonFileName(result.value), text: comparisonCsv(result.value) } : null
  }

  return {
    open, a, b, depth, phase, running, result, problems, error, startedAt, stale,
    presetByConfig, presetByConnection,
    toggle, configsFor, apisFor, setTarget, compareConfigs, compareConnections, run, cancel, csv,
  }
})
