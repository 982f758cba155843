import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { absenceSentence, type ApiDescription, type DescriptionAbsence } from '../../shared/api-description'
import type { AppInfo, ConnectionCheckResult, ConnectionInput, ConnectionTest, ConnectionView } from '../../shared/ipc/contract'
import { call, errorMessage, ExplorerClientError } from '../api/explorer-client'

/** The connection the user works on, and what its API says about itself. */
export const useConnectionsStore = defineStore('connections', () => {
  const info = ref<AppInfo | null>(null)
  const connections = ref<ConnectionView[]>([])
  const selectedId = ref<string | null>(null)
  const api = ref('')
  const config = ref('default')
  const description = ref<ApiDescription | null>(null)
  const descriptionState = ref<'idle' | 'loading' | 'ready' | 'none' | 'error'>('idle')
  /** Why the API has no description ('none'): a 404, not allowed to read it, or another shape. */
  const absence = ref<DescriptionAbsence | null>(null)
  /** What the window says about that: what it could not learn, and how to go on without it (the facets panel's words, and the chain's). */
  const absenceText = computed(() => (absence.value ? absenceSentence(absence.value) : null))
  const absenceChainText = computed(() => (absence.value ? absenceSentence(absence.value, 'chain') : null))
  const error = ref<string | null>(null)
  /** The outcome of the last Re-authenticate, for the bar. */
  const reauthState = ref<{ ok: boolean; message: string } | null>(null)
  const reauthenticating = ref(false)

  const selected = computed(() => connections.value.find((c) => c.id === selectedId.value) ?? null)
  const configs = computed(() => description.value?.configs ?? [config.value])
  /** APIs this run has read a description of, per connection: the API box offers them again. */
  const describedApis = ref<Record<string, string[]>>({})
  /** What the API box offers: the connection's own API, those described on it, and those of connections to the same workspace. */
  const apiOptions = computed(() => {
    const connection = selected.value
    if (!connection) return []
    const sameWorkspace = connections.value.filter((c) => c.queryUrl === connection.queryUrl && c.workspace === connection.workspace).map((c) => c.api)
    return [...new Set([connection.api, ...(describedApis.value[connection.id] ?? []), ...sameWorkspace].filter(Boolean))].sort()
  })
  /** What the Config box offers: the described configurations, else the ones named so far. */
  const configOptions = computed(() => [...new Set([...(description.value?.configs ?? []), selected.value?.config ?? '', config.value].filter(Boolean))])

  async function load(): Promise<void> {
    error.value = null
    try {
      info.value = await call('app:info', {})
      connections.value = await call('connections:list', {})
      // The connection chosen last time, else the demo, else the first saved one.
      const preferred = info.value.lastConnectionId ?? info.value.demo?.connectionId ?? connections.value[0]?.id ?? null
      if (preferred) await select(preferred)
    } catch (e) {
      error.value = errorMessage(e)
    }
  }

  /** Re-reads the list (token counts, secret status) and where secrets are kept, without changing the selection. */
  async function refresh(): Promise<void> {
    try {
      info.value = await call('app:info', {})
      connections.value = await call('connections:list', {})
    } catch (e) {
      error.value = errorMessage(e)
    }
  }

  function replace(view: ConnectionView): void {
    const index = connections.value.findIndex((c) => c.id === view.id)
    if (index >= 0) connections.value.splice(index, 1, view)
    else connections.value.push(view)
  }

  /** The user's choice of connection: selected now, and remembered for the next start. */
  async function choose(id: string): Promise<void> {
    await select(id)
    if (info.value && info.value.lastConnectionId !== id) {
      // Remembering is a convenience: if the main process cannot write it, the choice still stands for this run.
      const remembered = await call('connections:use', { connectionId: id }).catch(() => null)
      if (remembered) info.value = { ...info.value, lastConnectionId: remembered.lastConnectionId }
    }
  }

  async function select(id: string): Promise<void> {
    selectedId.value = id
    reauthState.value = null
    const connection = selected.value
    api.value = connection?.api ?? ''
    config.value = connection?.config || 'default'
    await describe()
  }

  async function describe(): Promise<void> {
    description.value = null
    absence.value = null
    error.value = null
    if (!selectedId.value || !api.value) {
      descriptionState.value = 'none'
      return
    }
    descriptionState.value = 'loading'
    try {
      const learnt = await call('api:learn', { connectionId: selectedId.value, api: api.value })
      description.value = learnt.description
      absence.value = learnt.absence
      descriptionState.value = description.value ? 'ready' : 'none'
      if (description.value && selectedId.value) rememberApi(selectedId.value, description.value.api)
      if (description.value && !description.value.configs.includes(config.value)) {
        config.value = description.value.configs[0] ?? 'default'
      }
    } catch (e) {
      const status = e instanceof ExplorerClientError ? e.error.status : undefined
      if (status === 401 || status === 403) {
        // A real deployment need not let an account read a description of ours: not a failure, nothing more to learn.
        descriptionState.value = 'none'
        absence.value = { reason: 'not-allowed', status }
        return
      }
      descriptionState.value = 'error'
      error.value = `Could not read the API description: ${errorMessage(e)}`
    }
  }

  function rememberApi(connectionId: string, name: string): void {
    const known = describedApis.value[connectionId] ?? []
    if (!known.includes(name)) describedApis.value = { ...describedApis.value, [connectionId]: [...known, name] }
  }

  /**
   * Saves a profile and, when one is given, its client secret (which goes to
   * the main process and never comes back). Errors propagate to the form.
   */
  async function save(input: ConnectionInput, secret?: string): Promise<{ view: ConnectionView; storedIn: 'os' | 'memory' | null }> {
    let view = await call('connections:save', input)
    replace(view)
    let storedIn: 'os' | 'memory' | null = null
    if (secret) {
      storedIn = (await call('secrets:set', { connectionId: view.id, secret })).stored
      view = (await call('connections:list', {})).find((c) => c.id === view.id) ?? view
      replace(view)
    }
    if (view.id === selectedId.value) await select(view.id)
    return { view, storedIn }
  }

  async function clearSecret(id: string): Promise<void> {
    await call('secrets:clear', { connectionId: id })
    await refresh()
  }

  async function remove(id: string): Promise<void> {
    await call('connections:delete', { id })
    connections.value = connections.value.filter((c) => c.id !== id)
    if (selectedId.value === id) {
      const next = info.value?.demo?.connectionId ?? connections.value[0]?.id ?? null
      if (next) await select(next)
      else selectedId.value = null
    }
  }

  async function test(id: string): Promise<ConnectionTest> {
    const result = await call('connections:test', { connectionId: id })
    replace(result.connection)
    return result
  }

  /** Tests what the form holds, saving nothing; a typed secret goes to the main process for this test only. */
  async function check(input: ConnectionInput, secret?: string): Promise<ConnectionCheckResult> {
    const result = await call('connections:check', { connection: input, ...(secret ? { secret } : {}) })
    // The token count beside the connection includes the test's request.
    void refresh()
    return result
  }

  /** A saved copy of a profile, its client secret copied inside the main process (this window never sees it). */
  async function duplicate(id: string): Promise<ConnectionView> {
    const view = await call('connections:duplicate', { connectionId: id })
    replace(view)
    return view
  }

  async function reauthenticate(): Promise<void> {
    const id = selectedId.value
    if (!id) return
    reauthenticating.value = true
    reauthState.value = null
    try {
      replace(await call('connections:reauth', { connectionId: id }))
      reauthState.value = { ok: true, message: 'A new token was issued.' }
    } catch (e) {
      reauthState.value = { ok: false, message: errorMessage(e) }
      await refresh()
    } finally {
      reauthenticating.value = false
    }
  }

  return {
    info, connections, selectedId, selected, api, config, configs, apiOptions, configOptions, description, descriptionState, absence, absenceText, absenceChainText, error,
    reauthState, reauthenticating,
    load, refresh, select, choose, describe, save, clearSecret, remove, test, check, duplicate, reauthenticate,
  }
})
