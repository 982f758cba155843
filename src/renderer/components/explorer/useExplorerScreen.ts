import { storeToRefs } from 'pinia'
import { computed, onBeforeUnmount, onMounted, watch } from 'vue'
import type { EndpointStep } from '../../../shared/query/model'
import { buildUrl } from '../../../shared/query/url'
import { useConnectionsStore } from '../../stores/connections'
import { PAGE_SIZES, useQueryStore } from '../../stores/query'

/** The explorer screen's logic: loading, the chain's endpoints, keyboard shortcuts. */
export function useExplorerScreen() {
  const connections = useConnectionsStore()
  const query = useQueryStore()
  const { description, descriptionState, selected } = storeToRefs(connections)

  /** The first step can be any endpoint; later ones only stackable endpoints. */
  const endpointsFor = (index: number) => {
    const all = description.value?.endpoints ?? []
    return index === 0 ? all : all.filter((endpoint) => endpoint.stackable)
  }

  const requestUrl = computed(() => {
    if (!selected.value) return ''
    try {
      return buildUrl(selected.value.queryUrl, {
        ...query.request('results', query.offset),
        version: selected.value.version,
      })
    } catch {
      return ''
    }
  })

  watch(
    () => [connections.selectedId, connections.api],
    () => query.reset(),
  )

  function updateStep(index: number, step: EndpointStep): void {
    query.steps[index] = step
  }

  function onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      if (!query.running) void query.run()
    } else if (event.key === 'Escape' && query.running) {
      void query.cancel()
    }
  }

  onMounted(async () => {
    window.addEventListener('keydown', onKeydown)
    await connections.load()
    const first = description.value?.endpoints.find((endpoint) => endpoint.kind === 'search') ?? description.value?.endpoints[0]
    if (first && !query.steps[0]?.endpoint) {
      updateStep(0, { endpoint: first.name, parameters: Object.fromEntries(first.parameters.map((p) => [p.name, ''])) })
    }
  })
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown))

  return { connections, query, descriptionState, endpointsFor, updateStep, requestUrl, pageSizes: PAGE_SIZES }
}
