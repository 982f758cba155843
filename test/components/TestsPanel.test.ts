import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import type { TestCase } from '../../src/shared/test-cases/test-case'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Tests region: its cases counted, Add test from current query sending
 * the editor's query and the saved query it started from (then saying what
 * to do next and putting the focus on the new case), Run tests and a case's
 * own Run asking main for all or that one and summing up what came back,
 * and Delete asking first.
 */

const fake = bridgeForFile()

const SAN: QueryRequest = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'san' } }], responseType: 'results', options: { count: 10 } }
const CASES: TestCase[] = [
  { name: 'San answers', query: 'San', expect: { status: 200 } },
  { name: 'San has many', query: 'San', expect: { totalAtLeast: 100 } },
]

function view(tests: TestCase[] = CASES): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_CONNECTION
  return {
    name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, sets: [], tests,
    queries: [{ name: 'San', connection: 'demo', notes: '', request: SAN }],
    bindings: [{ fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described } }],
  } as WorkspaceView
}

async function mount() {
  const pinia = demoWindow(fake, { 'workspace:current': { workspace: view(), draft: null } })
  const [{ default: TestsPanel }, { useConnectionsStore }, { useWorkspaceStore }, { useToastsStore }] = await Promise.all([
    import('../../src/renderer/components/tests/TestsPanel.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/stores/toasts'),
  ])
  await useConnectionsStore(pinia).load()
  const workspace = useWorkspaceStore(pinia)
  await workspace.start()
  const screen = await render(TestsPanel, { global: { plugins: [pinia] } })
  const region = screen.getByRole('region', { name: 'Tests' })
  await expect.element(region.getByRole('heading', { name: 'Tests 2' })).toBeVisible()
  return { screen, region, workspace, toasts: () => useToastsStore(pinia).toasts.map((toast) => toast.message) }
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)

describe('TestsPanel', () => {
  it('adds a test from the query loaded from a saved query, says what next, and puts the focus on it', async () => {
    const { region, workspace, toasts } = await mount()
    await workspace.loadSaved('San')
    const added: TestCase = { name: 'San 3', query: 'San', expect: { status: 200 } }
    fake.answers['tests:add-from-query'] = { workspace: view([...CASES, added]), name: 'San 3' }
    await region.getByRole('button', { name: 'Add test from current query' }).click()
    await expect.element(region.getByRole('heading', { name: 'Tests 3' })).toBeVisible()
    expect(sent('tests:add-from-query')).toEqual([{ connectionId: 'c1', request: expect.objectContaining({ steps: SAN.steps }), savedQuery: 'San' }])
    expect(toasts()).toContain('Added the test “San 3”, expecting what the answer shows now. Edit it to keep what matters, then Save workspace.')
    const list = region.getByRole('list', { name: 'Test cases' })
    await expect.poll(() => list.getByRole('listitem').nth(2).element().contains(document.activeElement)).toBe(true)
  })

  it('runs all the tests or one, and sums up what came back', async () => {
    const { region } = await mount()
    fake.answers['tests:start'] = {
      runId: 'r', state: 'done', durationMs: 1500, message: null, target: 'Demo', total: 2, done: 2,
      cases: [
        { name: 'San answers', outcome: 'passed', durationMs: 700, checks: [] },
        { name: 'San has many', outcome: 'failed', durationMs: 800, checks: [] },
      ],
    }
    await region.getByRole('button', { name: 'Run tests' }).click()
    await expect.element(region.getByRole('status')).toHaveTextContent('1 passed, 1 failed')
    await expect.element(region.getByRole('status')).toHaveTextContent('on Demo, in 1.5 s')
    expect(sent('tests:start')).toEqual([{ runId: expect.any(String) }])

    fake.answers['tests:start'] = {
      runId: 'r2', state: 'done', durationMs: 300, message: null, target: 'Demo', total: 1, done: 1,
      cases: [{ name: 'San has many', outcome: 'passed', durationMs: 300, checks: [] }],
    }
    await region.getByRole('listitem').filter({ hasText: 'San has many' }).getByRole('button', { name: 'Run test' }).click()
    await expect.element(region.getByRole('status')).toHaveTextContent('1 passed')
    expect(sent('tests:start').at(-1)).toEqual({ runId: expect.any(String), names: ['San has many'] })
  })

  it('deletes a case only once the user says so', async () => {
    const { region, screen, toasts } = await mount()
    fake.answers['tests:delete'] = view([CASES[1]!])
    const row = region.getByRole('listitem').filter({ hasText: 'San answers' })
    await row.getByRole('button', { name: 'Delete' }).click()
    const question = screen.getByRole('dialog', { name: 'Delete “San answers”?' })
    await question.getByRole('button', { name: 'Cancel' }).click()
    expect(sent('tests:delete')).toEqual([])

    await row.getByRole('button', { name: 'Delete' }).click()
    await screen.getByRole('dialog', { name: 'Delete “San answers”?' }).getByRole('button', { name: 'Delete' }).click()
    await expect.element(region.getByRole('heading', { name: 'Tests 1' })).toBeVisible()
    expect(sent('tests:delete')).toEqual([{ name: 'San answers' }])
    expect(toasts()).toContain('Deleted the test “San answers”.')
  })
})
