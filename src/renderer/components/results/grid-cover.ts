import { ref } from 'vue'

/**
 * Whether something lies over the grid's right part: the side panel, opened
 * over the grid in a narrow window. The panel sets it; the grid reads it to
 * keep the row's label (the pinned name column) in the part still seen. One
 * value for the one grid on screen.
 */
export const gridCovered = ref(false)
