import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { TestCase } from '../../src/shared/test-cases/test-case'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Tests tab's badge (useTestsBadge): the number of cases beside the
 * tab's name, which stays "Tests"; in words for a screen reader, the count
 * and how the last run went.
 */

const fake = bridgeForFile()

const CASES: TestCase[] = [
  { name: 'San answers', query: 'San', expect: { status: 200 } },
  { name: 'San has many', query: 'San', expect: { totalAtLeast: 100 } },
]
const VIEW = { name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: CASES, sets: [], bindings: [] } as WorkspaceView

describe('useTestsBadge', () => {
  it('counts the cases, and says how the last run went', async () => {
    const pinia = demoWindow(fake, {
      'tests:start': {
        runId: 'r', state: 'done', durationMs: 10, message: null, target: 'Demo', total: 2, done: 2,
        cases: [{ name: 'San answers', outcome: 'passed', durationMs: 5, checks: [] }, { name: 'San has many', outcome: 'failed', durationMs: 5, checks: [] }],
      },
    })
    const [{ default: ViewTabs }, { useWorkspaceStore }, { useTestsStore }] = await Promise.all([
      import('../../src/renderer/components/explorer/ViewTabs.vue'),
      import('../../src/renderer/stores/workspace'),
      import('../../src/renderer/stores/tests'),
    ])
    useWorkspaceStore(pinia).show(VIEW)
    const screen = await render(ViewTabs, { global: { plugins: [pinia] } })
    const tab = screen.getByRole('tab', { name: 'Tests', exact: true })
    await expect.element(tab).toHaveTextContent('Tests 2')
    await expect.element(tab).toHaveAccessibleDescription('2 cases')

    await useTestsStore(pinia).start()
    await expect.element(tab).toHaveAccessibleDescription('2 cases; last run 1 passed, 1 failed')
    // Only the Tests tab has a badge.
    await expect.element(screen.getByRole('tab', { name: 'Results', exact: true })).not.toHaveAttribute('aria-describedby')
  })
})
