import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Results view around the rows: a run on its way says so and how to
 * cancel it; a failure is said with what to fix, and no rows stand in for
 * it; a cancelled run says what is shown.
 */

const fake = bridgeForFile()

async function mount() {
  const pinia = demoWindow(fake, {
    'workspace:current': { workspace: { name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], sets: [], bindings: [] }, draft: null },
    'history:list': [],
  })
  const [{ default: ResultsView }, { useQueryStore }] = await Promise.all([
    import('../../src/renderer/components/explorer/ResultsView.vue'),
    import('../../src/renderer/stores/query'),
  ])
  const screen = await render(ResultsView, { global: { plugins: [pinia] } })
  return { screen, query: useQueryStore(pinia) }
}

describe('ResultsView', () => {
  it('says a run is on its way, then a failure with what to fix, then a cancel', async () => {
    const { screen, query } = await mount()
    await expect.element(screen.getByText('Build a query and press Run.')).toBeVisible()

    query.phase = 'running'
    await expect.element(screen.getByRole('status').filter({ hasText: 'Running the query…' })).toHaveTextContent('Cancel it with the button under the chain, or Esc.')

    query.phase = 'error'
    query.failure = { title: 'The service refused the query (400).', message: 'Unknown endpoint "serch".', hint: 'Check the endpoint names of the chain.' }
    await expect.element(screen.getByRole('alert')).toHaveTextContent(/^The service refused the query \(400\)\.\s*Unknown endpoint "serch"\.\s*Check the endpoint names of the chain\.$/)
    await expect.element(screen.getByText('No results to show.')).toBeVisible()

    query.failure = null
    query.phase = 'cancelled'
    await expect.element(screen.getByRole('status').filter({ hasText: 'Cancelled.' })).toHaveTextContent('Cancelled. Press Run to try again.')
  })
})
