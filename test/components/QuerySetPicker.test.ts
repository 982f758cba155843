import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The query set picker the Evaluation and Experiments views share: the
 * workspace's sets, the first chosen, the chosen one's counts beside it, a
 * choice asking main for that set; with no set, it says so and is disabled.
 */

const fake = bridgeForFile()

const set = (name: string, queries: number, judgments: number): QuerySet => ({
  name, query: 'City search', queries: Array.from({ length: queries }, (_, i) => ({ id: `q${i + 1}`, text: `q${i + 1}` })),
  judgments: Array.from({ length: judgments }, (_, i) => ({ query: 'q1', item: `i${i}`, rater: 'r1', grade: 1 })),
})
const view = (sets: QuerySet[]) => ({ name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], sets: sets.map(setSummary), bindings: [] }) as WorkspaceView

async function mount(sets: QuerySet[]) {
  const pinia = demoWindow(fake, { 'sets:get': sets[0] ?? null, 'eval:list': [] })
  const [{ default: QuerySetPicker }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/controls/QuerySetPicker.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(view(sets))
  return render(QuerySetPicker, { global: { plugins: [pinia] } })
}

describe('QuerySetPicker', () => {
  it("offers the workspace's sets, the first chosen with its counts, and a choice asks main for that set", async () => {
    const screen = await mount([set('World cities', 36, 120), set('Capitals', 5, 0)])
    const picker = screen.getByRole('combobox', { name: 'Query set' })
    await expect.element(picker).toHaveDisplayValue('World cities')
    await expect.element(screen.getByText('36 queries · 120 judgments')).toBeVisible()
    fake.answers['sets:get'] = set('Capitals', 5, 0)
    await picker.selectOptions('Capitals')
    await expect.element(screen.getByText('5 queries · 0 judgments')).toBeVisible()
    expect(fake.calls.filter((call) => call.channel === 'sets:get').map((call) => call.request)).toEqual([{ name: 'World cities' }, { name: 'Capitals' }])
  })

  it('says there is no set yet, and is disabled', async () => {
    const screen = await mount([])
    const picker = screen.getByRole('combobox', { name: 'Query set' })
    await expect.element(picker).toBeDisabled()
    await expect.element(picker).toHaveDisplayValue('No query sets yet')
  })
})
