import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { facetFilterName, facetOptionsChain, facetSelectedIds } from '../../shared/query/facets'
import { validateRequest } from '../../shared/query/validate'
import type { ResultsResponse } from '../../shared/responses'
import { facetOptions, type FacetOption } from '../../shared/results/facet-options'
import { buildUrl, rootMemo } from '../../shared/query/url'
import { call, errorMessage } from '../api/explorer-client'
import { useChainStore } from './chain'
import { useConnectionsStore } from './connections'
import { useQueryStore } from './query'

/** The most options one request brings (the service's page limit). */
export const OPTIONS_PER_FACET = 100
/** Typing in a parameter should not send a request per key. */
const REFRESH_DELAY_MS = 250

export interface FacetState {
  status: 'waiting' | 'loading' | 'ready' | 'error'
  options: FacetOption[]
  message: string | null
}

export type SelectionMode = 'multiple' | 'single'

/**
 * The facets of the API: for each facet options endpoint with a `:FILTER`
 * partner, its options for the chain as it stands (its own filter left out,
 * as faceted search does), and the selection read back from the chain.
 */
export const useFacetsStore = defineStore('facets', () => {
  const connections = useConnectionsStore()
  const editor = useChainStore()
  const query = useQueryStore()

  const states = ref<Record<string, FacetState>>({})
  const modes = ref<Record<string, SelectionMode>>({})
  const inFlight = new Map<string, string>()
  let timer: ReturnType<typeof setTimeout> | null = null

  const facets = computed(() => {
    const endpoints = connections.description?.endpoints ?? []
    const names = new Set(endpoints.map((endpoint) => endpoint.name))
    return endpoints
      .filter((endpoint) => endpoint.kind === 'facet-options' && names.has(facetFilterName(endpoint.name)))
      .map((endpoint) => endpoint.name)
  })

  const stateOf = (facet: string): FacetState => states.value[facet] ?? { status: 'waiting', options: [], message: null }
  const modeOf = (facet: string): SelectionMode => modes.value[facet] ?? 'multiple'
  const selectedIds = (facet: string): string[] => facetSelectedIds(editor.steps, facet)

  function setMode(facet: string, mode: SelectionMode): void {
    modes.value = { ...modes.value, [facet]: mode }
    const selected = selectedIds(facet)
    if (mode === 'single' && selected.length > 1) select(facet, selected.slice(0, 1))
  }

  /** Writes the selection into the chain, and shows its results at once when results are already on screen. */
  function select(facet: string, ids: string[]): void {
    editor.setFacetSelection(facet, ids)
    if (query.phase === 'done' || query.phase === 'cancelled') void query.run()
  }

  function toggle(facet: string, id: string, on: boolean): void {
    const selected = selectedIds(facet)
    if (modeOf(facet) === 'single') select(facet, on ? [id] : [])
    else select(facet, on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id))
  }

  const clear = (facet: string) => select(facet, [])

  async function load(facet: string): Promise<void> {
    const base = editor.request('results', 0, OPTIONS_PER_FACET)
    const built = facetOptionsChain({ ...base, options: { ...base.options, level: 1, offset: undefined } }, facet)
    delete built.options.offset
    delete built.options.homogeneousArrays
    const problems = validateRequest(built, { description: connections.description })
    if (problems.length > 0) {
      states.value = { ...states.value, [facet]: { status: 'waiting', options: [], message: 'Options appear once every step of the chain is filled in.' } }
      return
    }
    const previous = inFlight.get(facet)
    if (previous) void call('query:cancel', { requestId: previous }).catch(() => undefined)
    const id = crypto.randomUUID()
    inFlight.set(facet, id)
    states.value = { ...states.value, [facet]: { ...stateOf(facet), status: 'loading', message: null } }
    try {
      const reply = await call('query:run', { connectionId: connections.selectedId ?? '', requestId: id, request: built, companion: true })
      if (inFlight.get(facet) !== id) return
      states.value = { ...states.value, [facet]: { status: 'ready', options: facetOptions(reply.body as ResultsResponse), message: null } }
    } catch (e) {
      if (inFlight.get(facet) !== id) return
      states.value = { ...states.value, [facet]: { status: 'error', options: [], message: errorMessage(e) } }
    } finally {
      if (inFlight.get(facet) === id) inFlight.delete(facet)
    }
  }

  function refresh(): void {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      if (!connections.selectedId) return
      for (const facet of facets.value) void load(facet)
    }, REFRESH_DELAY_MS)
  }

  /**
   * What the options depend on: the chain sent (without paging and format),
   * the connection, the API and the configuration. Written as the URL, so a
   * change that does not change the request does not refetch.
   */
  const root = rootMemo()
  const dependsOn = computed(() => {
    const connection = connections.selected
    if (!connection) return ''
    try {
      return buildUrl(connection.queryUrl, editor.request('statistics', 0), root)
    } catch {
      return ''
    }
  })
  watch([dependsOn, facets], refresh, { immediate: true })

  return { facets, stateOf, modeOf, setMode, selectedIds, toggle, clear, refresh }
})
