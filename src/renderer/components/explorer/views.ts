import { defineComponent, h, markRaw, shallowRef, type Component, type ComputedRef } from 'vue'
import { afterNextFrame } from '../../perf/after-next-frame'
import { loadChartJs } from '../../composables/chart-kit'
import ResultsView from './ResultsView.vue'
import { useTestsBadge } from './useTestsBadge'
import type { ViewBadge } from './view-badge'

/**
 * A view whose module is read when first shown, or before by `prefetch`:
 * once read, it shows at once, as a view in the first bundle did (an async
 * component waits a turn even then, and a view shown must be there when
 * its tab is).
 */
function lazyView(name: string, load: () => Promise<{ default: Component }>): { component: Component; prefetch: () => Promise<void> } {
  const loaded = shallowRef<Component | null>(null)
  let loading: Promise<void> | null = null
  const prefetch = () =>
    (loading ??= load().then(
      (module) => void (loaded.value = markRaw(module.default)),
      (error: unknown) => {
        // Read again the next time it is shown.
        loading = null
        throw error
      },
    ))
  const component = defineComponent({
    name,
    setup() {
      if (!loaded.value) void prefetch()
      return () => (loaded.value ? h(loaded.value) : null)
    },
  })
  return { component, prefetch }
}

// The views a window does not open on are read after its first frame: at start their modules, with the charts
// and the schemas only they use, were a good part of the code run before the Endpoint box could be used.
const compare = lazyView('LazyCompareView', () => import('../compare/CompareView.vue'))
const tests = lazyView('LazyTestsPanel', () => import('../tests/TestsPanel.vue'))
const evaluation = lazyView('LazyEvaluationView', () => import('../relevance/EvaluationView.vue'))
const experiments = lazyView('LazyExperimentsView', () => import('../experiments/ExperimentsView.vue'))
const history = lazyView('LazyHistoryPanel', () => import('../history/HistoryPanel.vue'))

export interface WorkbenchView {
  /** Stable: remembered across reloads and used in element ids. */
  id: string
  /** The tab's name. */
  label: string
  component: Component
  /** Kept while another view shows (v-show), so coming back finds it as it was: the grid's scroll, the raw view. */
  keep?: boolean
  /** A composable for the tab's badge, called once as the tabs are set up. */
  badge?: () => ComputedRef<ViewBadge | null>
}

/**
 * The views of the main area, one at a time, in tab order: Ctrl/Cmd+1… picks
 * them by place. A new view (Evaluation, Experiments) is one entry here.
 */
export const VIEWS: readonly WorkbenchView[] = [
  { id: 'results', label: 'Results', component: ResultsView, keep: true },
  { id: 'compare', label: 'Compare', component: compare.component },
  { id: 'tests', label: 'Tests', component: tests.component, badge: useTestsBadge },
  { id: 'evaluation', label: 'Evaluation', component: evaluation.component },
  { id: 'experiments', label: 'Experiments', component: experiments.component },
  { id: 'history', label: 'History', component: history.component },
]

/**
 * Reads the other views' modules and Chart.js once the window's first frame
 * is drawn, so a tab chosen later (or the first statistics chart) shows at
 * once, as before they were split from the first bundle.
 */
export function prefetchAfterFirstFrame(): void {
  afterNextFrame(() => {
    for (const load of [loadChartJs, compare.prefetch, tests.prefetch, evaluation.prefetch, experiments.prefetch, history.prefetch]) void load().catch(() => undefined)
  })
}

/** The most views Ctrl/Cmd+digit reaches. */
export const VIEW_SHORTCUTS = 6
