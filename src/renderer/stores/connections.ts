import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { ApiDescription } from '../../shared/api-description'
import type { AppInfo, ConnectionView } from '../../shared/ipc/contract'
import { call, errorMessage } from '../api/explorer-client'

/** The connection the user works on, and what its API says about itself. */
export const useConnectionsStore = defineStore('connections', () => {
  const info = ref<AppInfo | null>(null)
  const connections = ref<ConnectionView[]>([])
  const selectedId = ref<string | null>(null)
  const api = ref('')
  const config = ref('default')
  const description = ref<ApiDescription | null>(null)
  const descriptionState = ref<'idle' | 'loading' | 'ready' | 'none' | 'error'>('idle')
  const error = ref<string | null>(null)

  const selected = computed(() => connections.value.find((c) => c.id === selectedId.value) ?? null)
  const configs = computed(() => description.value?.configs ?? [config.value])

  async function load(): Promise<void> {
    error.value = null
    try {
      info.value = await call('app:info', {})
      connections.value = await call('connections:list', {})
      const preferred = info.value.demo?.connectionId ?? connections.value[0]?.id ?? null
      if (preferred) await select(preferred)
    } catch (e) {
      error.value = errorMessage(e)
    }
  }

  async function select(id: string): Promise<void> {
    selectedId.value = id
    const connection = selected.value
    api.value = connection?.api ?? ''
    config.value = connection?.config || 'default'
    await describe()
  }

  async function describe(): Promise<void> {
    description.value = null
    error.value = null
    if (!selectedId.value || !api.value) {
      descriptionState.value = 'none'
      return
    }
    descriptionState.value = 'loading'
    try {
      description.value = await call('api:describe', { connectionId: selectedId.value, api: api.value })
      descriptionState.value = description.value ? 'ready' : 'none'
      if (description.value && !description.value.configs.includes(config.value)) {
        config.value = description.value.configs[0] ?? 'default'
      }
    } catch (e) {
      descriptionState.value = 'error'
      error.value = `Could not read the API description: ${errorMessage(e)}`
    }
  }

  return { info, connections, selectedId, selected, api, config, configs, description, descriptionState, error, load, select, describe }
})
