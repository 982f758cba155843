import { computed, type ComputedRef } from 'vue'
import { runCounts, summaryText } from '../../../shared/test-cases/run-view'
import { useTestsStore } from '../../stores/tests'
import type { ViewBadge } from './view-badge'

/** The Tests tab's badge: how many cases, coloured by how the last run went, which it says in words to a screen reader. */
export function useTestsBadge(): ComputedRef<ViewBadge | null> {
  const tests = useTestsStore()
  return computed(() => {
    const total = tests.cases.length
    const cases = total === 1 ? '1 case' : `${total} cases`
    const run = tests.run
    if (!run) return { text: String(total), tone: '', description: cases }
    const counts = runCounts(run.cases)
    const tone = run.state === 'running' ? '' : counts.failed + counts.errors > 0 ? 'bad' : run.state === 'done' ? 'good' : ''
    return { text: String(total), tone, description: `${cases}; last run ${summaryText(counts, run.state)}` }
  })
}
