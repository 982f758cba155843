import { storeToRefs } from 'pinia'
import { computed, nextTick, ref } from 'vue'
import { useConnectionsStore } from '../../stores/connections'
import { useFacetsStore } from '../../stores/facets'
import { useToastsStore } from '../../stores/toasts'
import { errorMessage } from '../../api/explorer-client'

/**
 * The facets of the API, each with its own group (the store keeps their
 * options in step with the chain), the facets declared by hand with their
 * Edit and Remove, the "Declare a facet" form, and, where the API serves no
 * description, what could not be learnt and how to go on.
 */
export function useFacetsPanel() {
  const store = useFacetsStore()
  const connections = useConnectionsStore()
  const toasts = useToastsStore()
  const { facets } = storeToRefs(store)

  const shown = computed(() => connections.selectedId !== null)
  /** Said only once the description is known to be missing, not while it is read. */
  const absence = computed(() => (connections.descriptionState === 'none' ? connections.absenceText : null))

  /** The form: closed (null), or open on a new facet (facet null) or on the declared facet being edited. */
  const editing = ref<{ facet: string | null } | null>(null)
  const startDeclare = () => {
    editing.value = { facet: null }
  }
  const startEdit = (facet: string) => {
    editing.value = { facet }
  }
  /** The button that opens the form: the focus goes back to it when the form closes, so the keyboard is not lost. */
  const declareButton = ref<HTMLButtonElement | null>(null)
  const closeForm = async () => {
    editing.value = null
    await nextTick()
    declareButton.value?.focus()
  }

  async function remove(facet: string): Promise<void> {
    try {
      await store.undeclare(facet)
      toasts.show(`Facet ${facet} removed; save the workspace to keep the change.`, { key: 'facet-declared' })
    } catch (e) {
      toasts.show(`Facet ${facet} was not removed: ${errorMessage(e)}`, { tone: 'danger' })
    }
  }

  return { facets, shown, absence, editing, startDeclare, startEdit, closeForm, declareButton, remove, isDeclared: store.isDeclared }
}
