import { storeToRefs } from 'pinia'
import { computed, nextTick, ref } from 'vue'
import { allowedEndpoints, problemsOfStep } from '../../../shared/chain/editor-chain'
import { useChainStore } from '../../stores/chain'
import { useConnectionsStore } from '../../stores/connections'

/** The chain editor's logic: the cards in order, adding and removing them, and reordering by drag. */
export function useChainEditor() {
  const connections = useConnectionsStore()
  const editor = useChainStore()
  const { description, descriptionState } = storeToRefs(connections)
  const { chain, problems } = storeToRefs(editor)

  const endpointsFor = (index: number) => allowedEndpoints(description.value, chain.value, index)
  const problemsFor = (index: number) => problemsOfStep(problems.value, index)
  const freeForm = computed(() => descriptionState.value === 'none' || descriptionState.value === 'error')

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
    editor, chain, descriptionState, freeForm, endpointsFor, problemsFor, list,
    addEndpointStep, addContextStep, dragging, dropAt, grab, over, drop, end,
  }
}
