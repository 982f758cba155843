import { storeToRefs } from 'pinia'
import { computed, nextTick, ref, shallowRef, watch } from 'vue'
import { allowedEndpoints, problemsOfStep } from '../../../shared/chain/editor-chain'
import type { HistoryEntry } from '../../../shared/ipc/contract'
import { usedEndpointNames } from '../../../shared/workspace/used-endpoints'
import { call } from '../../api/explorer-client'
import { useChainStore } from '../../stores/chain'
import { useConnectionsStore } from '../../stores/connections'
import { useHistoryStore } from '../../stores/history'
import { useWorkspaceStore } from '../../stores/workspace'

/** How many recorded runs are read for the endpoint names they used (the most History keeps per request). */
const RUNS_READ = 1_000

/** The chain editor's logic: the cards in order, adding and removing them, and reordering by drag. */
export function useChainEditor() {
  const connections = useConnectionsStore()
  const editor = useChainStore()
  const workspace = useWorkspaceStore()
  const history = useHistoryStore()
  const { description, descriptionState } = storeToRefs(connections)
  const { chain, problems } = storeToRefs(editor)

  const endpointsFor = (index: number) => allowedEndpoints(description.value, chain.value, index)
  const problemsFor = (index: number) => problemsOfStep(problems.value, index)
  const freeForm = computed(() => descriptionState.value === 'none' || descriptionState.value === 'error')
  /** What could not be learnt, when the API serves no description: said above the chain. */
  const absence = computed(() => (descriptionState.value === 'none' ? connections.absenceChainText : null))

  /**
   * Endpoint names this connection's API was used with: its saved queries in
   * the open workspace and its runs in the History. The Endpoint box offers
   * them beside (or, without a description, instead of) the described ones.
   */
  // Read only: up to a thousand entries need not each become reactive.
  const runs = shallowRef<HistoryEntry[]>([])
  async function readRuns(): Promise<void> {
    // A convenience: without the History the box still takes any name typed.
    runs.value = await call('history:list', { limit: RUNS_READ }).catch(() => [])
  }
  watch(() => [connections.selectedId, connections.api], () => void readRuns(), { immediate: true })
  // Each run History records brings its entry with its reply (answered or not): added to those read, nothing read again.
  watch(
    () => history.lastKept,
    (entry) => {
      if (entry) runs.value = [entry, ...runs.value.filter((run) => run.id !== entry.id)].slice(0, RUNS_READ)
    },
  )
  const usedEndpoints = computed(() => {
    const id = connections.selectedId
    if (!id) return []
    const saved = workspace.queries.filter((q) => workspace.connectionOf(q.name) === id).map((q) => q.request)
    const ran = runs.value.filter((run) => run.connectionId === id).map((run) => run.request)
    return usedEndpointNames([...saved, ...ran], connections.api)
  })

  const list = ref<HTMLElement | null>(null)
  /** A new card's first field takes the focus, so keyboard users can type at once. */
  async function focusLast(): Promise<void> {
    await nextTick()
    const cards = list.value?.querySelectorAll<HTMLElement>('.step')
    cards?.[cards.length - 1]?.querySelector<HTMLElement>('input:not([type=checkbox])')?.focus()
  }
  async function addEndpointStep(): Promise<void> {
    editor.addEndpointStep()
    await focusLast()
  }
  async function addContextStep(): Promise<void> {
    editor.addContextStep()
    await focusLast()
  }

  // Drag and drop: the handle starts it, a card under the pointer shows where the dragged one lands.
  const dragging = ref<number | null>(null)
  const dropAt = ref<number | null>(null)
  function grab(index: number, event: DragEvent): void {
    dragging.value = index
    event.dataTransfer?.setData('text/plain', String(index))
    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move'
  }
  function over(index: number, event: DragEvent): void {
    if (dragging.value === null) return
    event.preventDefault()
    dropAt.value = index
  }
  function drop(index: number): void {
    if (dragging.value !== null && dragging.value !== index) editor.moveStep(dragging.value, index)
    end()
  }
  function end(): void {
    dragging.value = null
    dropAt.value = null
  }

  return {
    editor, chain, descriptionState, freeForm, absence, endpointsFor, usedEndpoints, problemsFor, list,
    addEndpointStep, addContextStep, dragging, dropAt, grab, over, drop, end,
  }
}
