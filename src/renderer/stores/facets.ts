import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { withFacetSelection } from '../../shared/chain/editor-chain'
import type { FacetDeclaration } from '../../shared/query/facet-declaration'
import { describedFacets, facetOptionsChain, facetSelectedIds, facetSpecs, searchKey, withoutResetFilters, type FacetSpec } from '../../shared/query/facets'
import { validateRequest } from '../../shared/query/validate'
import type { ResultsResponse } from '../../shared/responses'
import { facetOptions, type FacetOption } from '../../shared/results/facet-options'
import { buildUrl, rootMemo } from '../../shared/query/url'
import { cancellableQuery, wasSuperseded, type CancellableQuery } from '../api/cancellable-query'
import { errorMessage } from '../api/explorer-client'
import { useChainStore } from './chain'
import { useConnectionsStore } from './connections'
import { useQueryStore } from './query'
import { useWorkspaceStore } from './workspace'

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

/** Cards a facet adds to the chain get ids of their own, apart from the chain store's. */
let nextFilterId = 0
const newFilterId = () => `facet-step-${++nextFilterId}`

/**
 * The facets of the API: those its description names (each facet options
 * endpoint with a `:FILTER` partner) and those declared by hand in the open
 * workspace for this connection. For each, its options for the chain as it
 * stands (its own filter left out, as faceted search does), and the
 * selection read back from the chain. Described and declared facets go
 * through the same code; a declared one says how its filter is written.
 */
export const useFacetsStore = defineStore('facets', () => {
  const connections = useConnectionsStore()
  const editor = useChainStore()
  const query = useQueryStore()
  const workspace = useWorkspaceStore()

  const states = ref<Record<string, FacetState>>({})
  const modes = ref<Record<string, SelectionMode>>({})
  /** Each facet's options are asked on a line of their own: a newer ask for a facet cancels its older one, not the others'. */
  const lines = new Map<string, CancellableQuery>()
  const lineOf = (facet: string): CancellableQuery => lines.get(facet) ?? lines.set(facet, cancellableQuery()).get(facet)!
  let timer: ReturnType<typeof setTimeout> | null = null

  const described = computed(() => describedFacets(connections.description))
  const declarations = computed<FacetDeclaration[]>(() => workspace.declaredFacets)
  const specs = computed<FacetSpec[]>(() => facetSpecs(described.value, declarations.value))
  /** The facets shown, by their options endpoint's name. */
  const facets = computed(() => specs.value.map((spec) => spec.options))

  const specOf = (facet: string): FacetSpec => specs.value.find((spec) => spec.options === facet) ?? facetSpecs([facet], [])[0]!
  const declarationOf = (facet: string): FacetDeclaration | null => declarations.value.find((d) => d.options === facet) ?? null
  const isDeclared = (facet: string): boolean => declarationOf(facet) !== null

  const stateOf = (facet: string): FacetState => states.value[facet] ?? { status: 'waiting', options: [], message: null }
  /** A declared facet's selection is part of its declaration; a described one's is the panel's choice. */
  const modeOf = (facet: string): SelectionMode => declarationOf(facet)?.selection ?? modes.value[facet] ?? 'multiple'
  const selectedIds = (facet: string): string[] => facetSelectedIds(editor.steps, specOf(facet))

  async function setMode(facet: string, mode: SelectionMode): Promise<void> {
    const declared = declarationOf(facet)
    if (declared) {
      try {
        await saveDeclarations(declarations.value.map((d) => (d === declared ? { ...d, selection: mode } : d)))
      } catch {
        // The declaration stays as it was; the picker shows it again.
        return
      }
    } else modes.value = { ...modes.value, [facet]: mode }
    const selected = selectedIds(facet)
    // A declared facet's filter is rewritten in its new form (a bare id for one option, a tuple list for several).
    if (mode === 'single' && selected.length > 1) select(facet, selected.slice(0, 1))
    else if (declared && selected.length > 0) select(facet, selected)
  }

  /** Writes the selection into the chain, and shows its results at once when results are already on screen. */
  function select(facet: string, ids: string[]): void {
    editor.setChain(withFacetSelection(editor.chain, specOf(facet), ids, newFilterId))
    if (query.phase === 'done' || query.phase === 'cancelled') void query.run()
  }

  function toggle(facet: string, id: string, on: boolean): void {
    const selected = selectedIds(facet)
    if (modeOf(facet) === 'single') select(facet, on ? [id] : [])
    else select(facet, on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id))
  }

  const clear = (facet: string) => select(facet, [])

  /** Replaces this connection's declarations in the open workspace (refusals are thrown for the form). */
  async function saveDeclarations(next: FacetDeclaration[]): Promise<void> {
    await workspace.setDeclaredFacets(next)
  }

  /** Adds a declaration, or replaces the one declared as `previous` (by its options endpoint) in its place. */
  async function declare(declaration: FacetDeclaration, previous?: string): Promise<void> {
    const list = declarations.value
    const at = previous === undefined ? -1 : list.findIndex((d) => d.options === previous)
    await saveDeclarations(at < 0 ? [...list, declaration] : list.map((d, i) => (i === at ? declaration : d)))
    // A renamed facet's old filter would stay in the chain with no facet to clear it from.
    if (previous !== undefined && previous !== declaration.options) dropFilter(previous)
  }

  /** Removes a declaration, and its filter from the chain: what the panel no longer shows cannot stay selected unseen. */
  async function undeclare(facet: string): Promise<void> {
    const spec = specOf(facet)
    await saveDeclarations(declarations.value.filter((d) => d.options !== facet))
    if (!described.value.includes(facet)) editor.setChain(withFacetSelection(editor.chain, spec, [], newFilterId))
  }

  function dropFilter(facet: string): void {
    const spec = specs.value.find((s) => s.options === facet)
    if (spec) editor.setChain(withFacetSelection(editor.chain, spec, [], newFilterId))
  }

  async function load(spec: FacetSpec): Promise<void> {
    const facet = spec.options
    const base = editor.request('results', 0, OPTIONS_PER_FACET)
    const built = facetOptionsChain({ ...base, options: { ...base.options, level: 1, offset: undefined } }, spec)
    delete built.options.offset
    delete built.options.homogeneousArrays
    // A declared facet is what the description does not say: checked as a chain without one.
    const problems = validateRequest(built, { description: isDeclared(facet) ? null : connections.description })
    if (problems.length > 0) {
      states.value = { ...states.value, [facet]: { status: 'waiting', options: [], message: 'Options appear once every step of the chain is filled in.' } }
      return
    }
    const call = lineOf(facet).start()
    states.value = { ...states.value, [facet]: { ...stateOf(facet), status: 'loading', message: null } }
    try {
      const reply = await call.send('query:run', { connectionId: connections.selectedId ?? '', request: built, keepOutOfHistory: true })
      states.value = { ...states.value, [facet]: { status: 'ready', options: facetOptions(reply.body as ResultsResponse), message: null } }
    } catch (e) {
      if (wasSuperseded(e)) return
      states.value = { ...states.value, [facet]: { status: 'error', options: [], message: errorMessage(e) } }
    }
  }

  function refresh(): void {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      if (!connections.selectedId) return
      for (const spec of specs.value) void load(spec)
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
  watch([dependsOn, () => JSON.stringify(specs.value)], refresh, { immediate: true })

  /**
   * Reset on search change, as the official client's setParameter does: when
   * the search step (the first endpoint step: its name or parameters)
   * changes, the filters of the facets that reset are dropped. A request put
   * in place whole (a pasted URL, a saved query, the draft) keeps its filters:
   * it is not a new search typed over old selections.
   */
  watch(
    () => searchKey(editor.steps),
    (next, before) => {
      if (editor.loading || before === next) return
      const all = editor.chain.map((entry) => entry.step)
      const kept = new Set(withoutResetFilters(all, specs.value))
      if (kept.size < all.length) editor.setChain(editor.chain.filter((entry) => kept.has(entry.step)))
    },
  )

  return {
    facets, specs, declarations, isDeclared, declarationOf, stateOf, modeOf, setMode, selectedIds, toggle, clear, refresh, declare, undeclare,
  }
})
