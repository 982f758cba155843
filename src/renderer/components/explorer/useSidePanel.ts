import { nextTick, onBeforeUnmount, ref, watchEffect } from 'vue'
import { gridCovered } from '../results/grid-cover'
import { useRememberedFold } from '../../composables/useRememberedFold'

/** At this width and below, the results need the room: the panel starts folded, and opens over the grid. */
export const NARROW_QUERY = '(max-width: 1100px)'
/**
 * Whether a side panel (SidePanel.vue: the results' statistics and facets,
 * the comparison's distributions) is open. It is remembered apart for
 * narrow and wide windows, as the reasons to fold it differ: on a laptop the
 * grid needs the width, on a large screen there is room for both. On a narrow
 * window the open panel lies over the grid (so the grid keeps its columns):
 * there it has a close button, Escape closes it, and the focus goes into it
 * as it opens and back to its toggle as it closes.
 */
export function useSidePanel(options: { coversGrid?: boolean } = {}) {
  const { open, cramped, toggle: flip } = useRememberedFold({ query: NARROW_QUERY, storageKey: 'query-explorer.insights', modes: ['narrow', 'wide'] })
  const toggleButton = ref<HTMLButtonElement | null>(null)
  const closeButton = ref<HTMLButtonElement | null>(null)
  // Only the results' panel lies over the grid; the Compare view's, sharing the fold, lies over the comparison.
  if (options.coversGrid !== false) {
    watchEffect(() => (gridCovered.value = open.value && cramped.value))
    onBeforeUnmount(() => (gridCovered.value = false))
  }

  function toggle(): void {
    flip()
    if (open.value && cramped.value) void nextTick(() => closeButton.value?.focus())
  }

  function close(): void {
    if (!open.value) return
    flip()
    void nextTick(() => toggleButton.value?.focus())
  }

  /** Escape closes the panel lying over the grid, and only that (not a running query's Esc to cancel). */
  function onKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Escape' || !open.value || !cramped.value || event.defaultPrevented) return
    event.preventDefault()
    event.stopPropagation()
    close()
  }

  return { open, overlay: cramped, toggle, close, onKeydown, toggleButton, closeButton }
}
