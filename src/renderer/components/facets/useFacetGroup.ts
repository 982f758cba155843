import { computed, ref } from 'vue'
import { shownFacetOption, type FacetOption, type ShownFacetOption } from '../../../shared/results/facet-options'
import { useFacetsStore, type SelectionMode } from '../../stores/facets'

/** Options shown before "Show all": enough to pick from, short enough to see the next facet. */
export const SHORT_LIST = 8

export interface ShownOption extends FacetOption {
  checked: boolean
  /** Width of the count bar, 0..1 of the largest option. */
  share: number
  /** The label and tooltip as shown (bidi controls escaped); `id` and `label` stay as sent for toggling and the filter box. */
  shown: ShownFacetOption
}

/** One facet's logic: its options with their counts, the selection, the filter box and the selection mode. */
export function useFacetGroup(facet: () => string) {
  const facets = useFacetsStore()
  const state = computed(() => facets.stateOf(facet()))
  const mode = computed(() => facets.modeOf(facet()))
  const selected = computed(() => facets.selectedIds(facet()))
  const filter = ref('')
  const showAll = ref(false)

  const options = computed<ShownOption[]>(() => {
    const chosen = new Set(selected.value)
    const listed = state.value.options
    // A selection the options no longer list (pasted, or emptied by another facet) still shows, ticked, so it can be unticked.
    const missing = selected.value
      .filter((id) => !listed.some((option) => option.id === id))
      .map((id) => ({ id, label: id, count: null, probability: 0 }))
    const max = Math.max(1, ...listed.map((option) => option.count ?? option.probability))
    return [...missing, ...listed].map((option) => ({
      ...option,
      checked: chosen.has(option.id),
      share: (option.count ?? option.probability) / max,
      shown: shownFacetOption(option),
    }))
  })

  const matching = computed(() => {
    const text = filter.value.trim().toLowerCase()
    return text === '' ? options.value : options.value.filter((o) => o.label.toLowerCase().includes(text) || o.id.toLowerCase().includes(text))
  })
  const shown = computed(() => {
    if (showAll.value || filter.value.trim() !== '') return matching.value
    const head = matching.value.slice(0, SHORT_LIST)
    // Ticked options never hide behind "Show all".
    return [...head, ...matching.value.slice(SHORT_LIST).filter((o) => o.checked)]
  })
  const hidden = computed(() => matching.value.length - shown.value.length)

  const toggle = (id: string, on: boolean) => facets.toggle(facet(), id, on)
  const clear = () => facets.clear(facet())
  const setMode = (next: SelectionMode) => facets.setMode(facet(), next)
  const formatCount = (option: FacetOption) =>
    option.count !== null ? option.count.toLocaleString('en-US') : option.probability > 0 ? `${(option.probability * 100).toFixed(1)}%` : '–'

  return { state, mode, selected, filter, showAll, options, shown, hidden, toggle, clear, setMode, formatCount }
}
