import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { RunTarget, TestRunStatus } from '../../shared/ipc/contract'
import type { CaseReport } from '../../shared/test-cases/report'
import { runTargetOf, type TargetChoice } from '../../shared/test-cases/run-view'
import type { Expectations } from '../../shared/test-cases/test-case'
import { call, errorMessage } from '../api/explorer-client'
import { useFollowedJob } from '../composables/useFollowedJob'
import { useConnectionsStore } from './connections'
import { latestCall } from './latest-call'
import { useToastsStore } from './toasts'
import { useWorkspaceStore } from './workspace'

/** How often a running test run is asked for its progress. */
export const POLL_MS = 250

/** What a case is doing now, for its line in the Tests region. */
export type CaseState = 'idle' | 'running' | 'snapshot'

/**
 * The open workspace's test cases as the Tests region shows them: the cases
 * come from the workspace store (main owns the document; every edit here
 * replies the new view, which goes to that store, so its unsaved marker
 * follows), and this store holds the runs: the latest run's progress, each
 * case's last outcome, and where the next run goes.
 */
export const useTestsStore = defineStore('tests', () => {
  const workspace = useWorkspaceStore()
  const connections = useConnectionsStore()
  const toasts = useToastsStore()

  const cases = computed(() => workspace.view?.tests ?? [])
  /** The cases of the latest run, in its order: a case with no report yet is still running. */
  const runNames = ref<string[]>([])
  /** Each case's last outcome, by name: from the latest run that ran it, or its last "Update snapshot". */
  const reports = shallowRef<Record<string, CaseReport>>({})
  /** Why the last run could not start, or stopped being followed. */
  const error = ref<string | null>(null)
  const adding = ref(false)
  /** Cases recording a snapshot now. */
  const recording = ref<string[]>([])
  const target = ref<TargetChoice>({ connectionId: null, api: '', config: '' })
  /** The configurations the chosen target's API describes. */
  const targetConfigs = ref<string[]>([])

  /** The latest run, as main last reported it, followed until it ends. */
  const followed = useFollowedJob('tests', { intervalMs: POLL_MS, error, unreadable: "The test run's progress could not be read", onStatus: take })
  const { run, running } = followed

  /**
   * The app connection every case runs on when each runs on its own (the
   * usual workspace: one connection); else the editor's. What an API or
   * config chosen with "each case's own connection" runs on.
   */
  const ownConnectionId = computed<string | null>(() => {
    const view = workspace.view
    const fileConnections = new Set(
      cases.value.map((testCase) => testCase.connection ?? view?.queries.find((query) => query.name === testCase.query)?.connection ?? null),
    )
    const bound = new Set([...fileConnections].map((id) => view?.bindings.find((b) => b.fileConnectionId === id)?.connectionId ?? null))
    const [only] = bound
    return bound.size === 1 && only ? only : connections.selectedId
  })
  /** The connection the API and config pickers speak of: the one chosen, or the one the cases run on. */
  const targetConnectionId = computed(() => target.value.connectionId ?? ownConnectionId.value)
  const targetConnection = computed(() => connections.connections.find((c) => c.id === targetConnectionId.value) ?? null)
  const runTarget = computed<RunTarget | undefined>(() => runTargetOf(target.value))

  /** The APIs a target connection offers: its own and those of connections to the same workspace (and the one chosen). */
  const targetApis = computed(() => {
    const connection = targetConnection.value
    if (!connection) return []
    const sameWorkspace = connections.connections.filter((c) => c.queryUrl === connection.queryUrl && c.workspace === connection.workspace).map((c) => c.api)
    const described = connection.id === connections.selectedId ? connections.apiOptions : []
    return [...new Set([connection.api, ...sameWorkspace, ...described, target.value.api].filter(Boolean))].sort()
  })
  const targetConfigOptions = computed(() => [...new Set([...targetConfigs.value, target.value.config].filter(Boolean))])

  function stateOf(name: string): CaseState {
    if (recording.value.includes(name)) return 'snapshot'
    if (!running.value || !runNames.value.includes(name)) return 'idle'
    return run.value?.cases.some((report) => report?.name === name) ? 'idle' : 'running'
  }

  function take(status: TestRunStatus): void {
    const next = { ...reports.value }
    for (const report of status.cases) if (report) next[report.name] = report
    reports.value = next
  }

  function forget(...names: string[]): void {
    const next = { ...reports.value }
    for (const name of names) delete next[name]
    reports.value = next
  }

  // Another workspace: the outcomes shown were of its cases, and a run still going runs cases no longer open.
  watch(
    () => workspace.openings,
    () => {
      const current = run.value
      if (current?.state === 'running') void call('tests:cancel', { runId: current.runId }).catch(() => undefined)
      followed.clear()
      runNames.value = []
      reports.value = {}
    },
  )

  /** Runs all cases, or those named, on the chosen target; progress comes by polling. */
  async function start(names?: string[]): Promise<void> {
    if (running.value || cases.value.length === 0) return
    const chosen = names ?? cases.value.map((testCase) => testCase.name)
    error.value = null
    await followed.begin(async (runId) => {
      const status = await call('tests:start', { runId, ...(runTarget.value ? { target: runTarget.value } : {}), ...(names ? { names } : {}) })
      runNames.value = chosen
      forget(...chosen.filter((name) => !status.cases.some((report) => report?.name === name)))
      return status
    }, 'The tests did not run')
  }

  /** A cancel that fails is said in a toast: the Tests region's error line is the run's. */
  function cancel(): Promise<void> {
    return followed.cancel((message) => toasts.show(`The test run was not cancelled: ${message}`, { tone: 'danger' }))
  }

  /**
   * "Add test from current query": the editor's query on its connection
   * (and the saved query it started from) becomes a case whose expectations
   * are read off a fresh run. Replies the new case's name, or null (a toast says why).
   */
  async function addFromQuery(): Promise<string | null> {
    const connectionId = connections.selectedId
    const request = workspace.editorRequest
    if (!connectionId || request.steps.length === 0) {
      toasts.show('Build a query first: a test is made from the query in the editor and its current answer.', { tone: 'danger' })
      return null
    }
    adding.value = true
    try {
      const savedQuery = workspace.savedQuery
      const reply = await call('tests:add-from-query', { connectionId, request, ...(savedQuery ? { savedQuery } : {}) })
      workspace.show(reply.workspace)
      forget(reply.name)
      return reply.name
    } catch (e) {
      toasts.show(`No test was added: ${errorMessage(e)}`, { tone: 'danger' })
      return null
    } finally {
      adding.value = false
    }
  }

  /** New expectations (and a new name) for a case. Errors (a name taken) are thrown for the editor to show. */
  async function edit(name: string, expect: Expectations, newName?: string): Promise<void> {
    const renamed = newName !== undefined && newName !== name ? newName : undefined
    const view = await call('tests:edit', { name, expect, ...(renamed ? { newName: renamed } : {}) })
    workspace.show(view)
    // The outcome shown judged the old expectations: it says nothing about these.
    forget(name)
  }

  async function remove(name: string): Promise<boolean> {
    try {
      workspace.show(await call('tests:delete', { name }))
      forget(name)
      return true
    } catch (e) {
      toasts.show(`“${name}” was not deleted: ${errorMessage(e)}`, { tone: 'danger' })
      return false
    }
  }

  /** Runs the case on the chosen target and records its top ids as its snapshot; the run's outcome is shown. */
  async function updateSnapshot(name: string): Promise<CaseReport | null> {
    recording.value = [...recording.value, name]
    try {
      const reply = await call('tests:update-snapshot', { name, ...(runTarget.value ? { target: runTarget.value } : {}) })
      workspace.show(reply.workspace)
      reports.value = { ...reports.value, [name]: reply.report }
      return reply.report
    } catch (e) {
      toasts.show(`No snapshot was recorded for “${name}”: ${errorMessage(e)}`, { tone: 'danger' })
      return null
    } finally {
      recording.value = recording.value.filter((each) => each !== name)
    }
  }

  /** Chooses where runs go: a connection (each case keeping its own API and config until others are chosen), or each case's own. */
  function chooseConnection(connectionId: string | null): void {
    const connection = connections.connections.find((c) => c.id === connectionId) ?? null
    target.value = { connectionId: connection?.id ?? null, api: '', config: '' }
  }

  /**
   * An API or config chosen while each case runs on its own connection is a
   * run on the connection the cases run on, with that API or config: the
   * "Run on" picker shows it, and "Each case's own" for both goes back.
   */
  function chooseApi(api: string): void {
    target.value = withOverride({ api })
  }

  function chooseConfig(config: string): void {
    target.value = withOverride({ config })
  }

  function withOverride(change: Partial<Pick<TargetChoice, 'api' | 'config'>>): TargetChoice {
    const next = { ...target.value, ...change }
    if (next.connectionId === null && (next.api || next.config)) return { ...next, connectionId: ownConnectionId.value }
    return next
  }

  // The configurations of the target's API (the connection's own when none is chosen), from its description.
  const describing = latestCall()
  watch(
    () => [targetConnectionId.value, target.value.api || targetConnection.value?.api || ''] as const,
    async ([connectionId, api]) => {
      const latest = describing.start()
      targetConfigs.value = []
      if (!connectionId || !api) return
      if (connectionId === connections.selectedId && api === connections.description?.api) {
        targetConfigs.value = connections.description.configs
        return
      }
      try {
        const description = await call('api:describe', { connectionId, api })
        if (latest()) targetConfigs.value = description?.configs ?? []
      } catch {
        // Nothing to offer but each case's own config; the run itself says what is wrong with the target.
        if (latest()) targetConfigs.value = []
      }
    },
  )

  return {
    cases, run, runNames, reports, error, adding, recording, target, targetConfigs, running, targetConnection, runTarget, targetApis, targetConfigOptions,
    ownConnectionId,
    stateOf, start, cancel, addFromQuery, edit, remove, updateSnapshot, chooseConnection, chooseApi, chooseConfig,
  }
})
