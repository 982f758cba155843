import type { Component, ComputedRef } from 'vue'
import CompareView from '../compare/CompareView.vue'
import EvaluationView from '../evaluation/EvaluationView.vue'
import ExperimentsView from '../experiments/ExperimentsView.vue'
import HistoryPanel from '../history/HistoryPanel.vue'
import TestsPanel from '../tests/TestsPanel.vue'
import ResultsView from './ResultsView.vue'
import { useTestsBadge } from './useTestsBadge'

/** A tab's figure beside its name (the Tests' count), with what it means in words for a screen reader. */
export interface ViewBadge {
  text: string
  /** good or bad colours it, '' leaves it plain. */
  tone: '' | 'good' | 'bad'
  description: string
}

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
  { id: 'compare', label: 'Compare', component: CompareView },
  { id: 'tests', label: 'Tests', component: TestsPanel, badge: useTestsBadge },
  { id: 'evaluation', label: 'Evaluation', component: EvaluationView },
  { id: 'experiments', label: 'Experiments', component: ExperimentsView },
  { id: 'history', label: 'History', component: HistoryPanel },
]

/** The most views Ctrl/Cmd+digit reaches. */
export const VIEW_SHORTCUTS = 6

export const viewTabId = (id: string) => `view-tab-${id}`
export const viewPanelId = (id: string) => `view-panel-${id}`
