import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { h } from 'vue'
import { render } from 'vitest-browser-vue'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The frame the Evaluation and Experiments views share: a region named by its
 * title, whose head line holds the set picker and what the view adds to it,
 * then the view's own content.
 */

const fake = bridgeForFile()

const SET: QuerySet = { name: 'World cities', query: 'City search', queries: [{ id: 'q01', text: 'paris' }, { id: 'q02', text: 'rome' }], judgments: [{ query: 'q01', item: 'paris-1', rater: 'r1', grade: 3 }] }

function view(): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_CONNECTION
  return {
    name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, tests: [], sets: [setSummary(SET)], queries: [],
    bindings: [{ fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described } }],
  }
}

describe('QuerySetView', () => {
  it('names the region by its title and puts the set picker, then the view’s head items, on the head line before its content', async () => {
    const pinia = demoWindow(fake, { 'sets:get': SET, 'eval:list': [] })
    const [{ default: QuerySetView }, { useWorkspaceStore }] = await Promise.all([
      import('../../src/renderer/components/controls/QuerySetView.vue'),
      import('../../src/renderer/stores/workspace'),
    ])
    useWorkspaceStore(pinia).show(view())
    const screen = await render(QuerySetView, {
      props: { title: 'Evaluation', name: 'evaluation' },
      slots: { head: () => h('button', { type: 'button' }, 'New set'), default: () => h('p', 'The table') },
      global: { plugins: [pinia] },
    })

    const region = screen.getByRole('region', { name: 'Evaluation' })
    await expect.element(region.getByRole('heading', { name: 'Evaluation', level: 2 })).toBeVisible()
    const picker = region.getByRole('combobox', { name: 'Query set' })
    await expect.element(picker).toHaveValue('World cities')
    await expect.element(region.getByText('2 queries · 1 judgments')).toBeVisible()

    // The head line: title, picker, then the view's own items; the content below it.
    const line = region.element().querySelector('.report-view__line')!
    expect([...line.children].map((child) => child.tagName)).toEqual(['H2', 'LABEL', 'SPAN', 'BUTTON'])
    await expect.element(region.getByText('The table')).toBeVisible()
    expect(line.contains(region.getByText('The table').element())).toBe(false)
  })
})
