import { computed } from 'vue'
import type { Comparison } from '../../../shared/ipc/contract'

/**
 * The compare view's statistics area: both sides' distributions on one
 * chart, in a side panel (SidePanel) that folds to a rail as the explorer's
 * statistics panel does (and with the same remembered choice, per window
 * width: it is the same area of the screen). In a narrow window it opens over
 * the comparison, as that panel opens over the grid, so the targets' boxes
 * and the figures keep their width.
 */
export function useCompareStats(result: () => Comparison | null) {
  /** Names for the chart's legend and table: the side's letter and its target. */
  const sides = computed(() => {
    const r = result()
    return r ? { a: { name: `A · ${r.a.label}`, stats: r.a.stats }, b: { name: `B · ${r.b.label}`, stats: r.b.stats } } : null
  })
  const hasStats = computed(() => (result()?.a.stats.length ?? 0) + (result()?.b.stats.length ?? 0) > 0)
  return { sides, hasStats }
}
