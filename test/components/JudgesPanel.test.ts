import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { TWO_QUERY_SET } from './demo-set-view'
import { DEMO_JUDGE, judgeStatus, judgesView } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Evaluation view's Judges part: the workspace's judges listed (the
 * demo's stand-in labelled so, each with its grades in the set), a key sent
 * once to main and never shown again, Estimate (a dry run) before Judge,
 * the budget required, the progress and Cancel, a run stopped at its budget
 * said plainly (not as an error), the failures with Retry failed, and
 * Delete.
 */

const fake = bridgeForFile()
const realConfirm = window.confirm
afterEach(() => (window.confirm = realConfirm))

/** The two-query set with two grades of the demo judge. */
const SET: QuerySet = {
  ...TWO_QUERY_SET,
  judgments: [
    ...TWO_QUERY_SET.judgments,
    { query: 'q01', item: 'paris-1', rater: 'llm:demo', grade: 2, explanation: 'A city named Paris.' },
    { query: 'q02', item: 'rome-1', rater: 'llm:demo', grade: 3, explanation: 'The capital of Italy.' },
  ],
}

const CANARY = 'sk-canary-0123456789'

async function mount(answers: Record<string, unknown> = {}) {
  const pinia = demoWindow(fake, {
    'sets:get': SET,
    'eval:list': [],
    'judges:key-status': { origin: 'http://127.0.0.1:8080', stored: false, storage: 'os' },
    ...answers,
  })
  const [{ default: JudgesPanel }, { useWorkspaceStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/JudgesPanel.vue'),
    import('../../src/renderer/stores/workspace'),
  ])
  useWorkspaceStore(pinia).show(judgesView(SET))
  const screen = Object.assign(await render(JudgesPanel, { global: { plugins: [pinia] } }), { pinia })
  await expect.element(screen.getByRole('table', { name: 'LLM judges' })).toBeVisible()
  // The set is read: the run names it.
  await expect.element(screen.getByRole('heading', { name: 'Judge World cities with demo' })).toBeVisible()
  return screen
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)
const cells = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent!.replace(/\s+/g, ' ').trim()))

describe('JudgesPanel', () => {
  it('lists the judges with provider, model, base URL and their grades in the set, the demo stand-in labelled', async () => {
    const screen = await mount()
    const rows = cells(screen.getByRole('table', { name: 'LLM judges' }).element() as HTMLElement)
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ['llm:demo demo', 'OpenAI-compatible', 'demo-judge', 'http://127.0.0.1:8080/v1', '2'],
      ['llm:gpt', 'OpenAI-compatible', 'gpt-4o-mini', 'https://api.openai.com/v1', '0'],
    ])
    await expect.element(screen.getByRole('button', { name: 'Edit judge gpt' })).toBeVisible()
    await screen.getByRole('button', { name: 'Edit judge gpt' }).click()
    await expect.element(screen.getByRole('dialog', { name: 'Edit judge gpt' })).toBeVisible()
  })

  it('sends a key to main once, empties the field, and says only that one is stored and where', async () => {
    const screen = await mount()
    await expect.element(screen.getByRole('status').filter({ hasText: 'key' })).toHaveTextContent('No key stored — not needed for the demo or Ollama')
    fake.answers['judges:key-status'] = { origin: 'https://api.openai.com', stored: false, storage: 'os' }
    fake.answers['judges:set-key'] = { origin: 'https://api.openai.com', stored: true, storage: 'os' }
    await screen.getByRole('combobox', { name: 'Judge to run' }).selectOptions('gpt')
    const field = screen.getByLabelText('API key for https://api.openai.com')
    await field.fill(CANARY)
    await screen.getByRole('button', { name: 'Save key' }).click()
    await expect.element(screen.getByText('A key is stored for https://api.openai.com (OS keychain)')).toBeVisible()
    expect(sent('judges:set-key')).toEqual([{ name: 'gpt', key: CANARY }])
    await expect.element(field).toHaveValue('')
    expect(document.body.innerHTML).not.toContain(CANARY)
    // Nor in any store of the window.
    expect(JSON.stringify(screen.pinia.state.value)).not.toContain(CANARY)

    fake.answers['judges:clear-key'] = { cleared: true }
    fake.answers['judges:key-status'] = { origin: 'https://api.openai.com', stored: false, storage: 'os' }
    await screen.getByRole('button', { name: 'Forget key' }).click()
    await expect.element(screen.getByText('No key stored — not needed for the demo or Ollama')).toBeVisible()
    expect(sent('judges:clear-key')).toEqual([{ name: 'gpt' }])
  })

  it('estimates with a dry run first: calls and tokens, what the cache has, the stale, the graded', async () => {
    const estimate = { calls: 1240, inputTokens: 1_100_000, outputTokens: 74_400, cached: 12, current: 2, stale: 3, text: 'about 1,240 calls, 1.1 M input tokens' }
    const screen = await mount({ 'judges:start': judgeStatus('World cities', { state: 'done', phase: 'done', estimate }) })
    await screen.getByRole('button', { name: 'Estimate' }).click()
    await expect.element(screen.getByText(/^about 1,240 calls, 1\.1 M input tokens · 12 from the cache · 3 stale · 2 already graded\./)).toBeVisible()
    await expect.element(screen.getByText(/3 grades are stale \(another prompt, model or item content\)/)).toBeVisible()
    expect(sent('judges:start')).toEqual([
      { runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1' }, depth: 5, scope: 'ungraded', budgetCalls: 1000, concurrency: 4, dryRun: true },
    ])
  })

  it('will not start without a budget of calls', async () => {
    const screen = await mount()
    await screen.getByRole('spinbutton', { name: 'Budget, calls' }).fill('')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Budget, calls: required.')
    expect(sent('judges:start')).toEqual([])
  })

  it('judges with progress; a run stopped at its budget says so plainly, lists the failures, and Retry failed grades them', async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities') })
    fake.hold('judges:status')
    fake.answers['workspace:current'] = { workspace: judgesView(SET), draft: null }
    await screen.getByRole('spinbutton', { name: 'Budget, calls' }).fill('50')
    await screen.getByRole('spinbutton', { name: 'Budget, tokens (optional)' }).fill('200000')
    await screen.getByRole('combobox', { name: 'Items to judge' }).selectOptions('stale')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    expect(sent('judges:start')[0]).toEqual({
      runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1' }, depth: 5, scope: 'stale', budgetCalls: 50, budgetTokens: 200000, concurrency: 4, dryRun: false,
    })
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.answer(judgeStatus('World cities', { graded: 20, cached: 4, calls: 21, tokens: { input: 9000, output: 1200 }, done: 24 }))
    await expect.element(screen.getByRole('progressbar', { name: 'Judging progress' })).toHaveAttribute('aria-valuetext', '24 of 170 graded · 21 calls · 10,200 tokens · 4 from the cache')
    await expect.element(screen.getByRole('button', { name: 'Cancel' })).toBeVisible()

    await expect.poll(() => fake.held.length).toBe(1)
    const failures = [{ query: 'q02', item: 'rome-9', reason: 'The answer\'s grade 7 is not on the scale (0, 1, 2, 3): "7, very relevant"' }]
    fake.held.shift()!.answer(judgeStatus('World cities', {
      state: 'done', phase: 'done', graded: 46, cached: 4, calls: 50, tokens: { input: 20000, output: 3000 }, stoppedByBudget: true, left: 120, failedCount: 1, failures,
    }))
    await expect.element(screen.getByText('Stopped at the budget of 50 calls: 50 graded, 120 left, 1 failed.')).toBeVisible()
    await expect.element(screen.getByRole('alert')).not.toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Failures (1)' })
    expect(cells(table.element() as HTMLElement)).toEqual([['rome q02', 'rome-9', failures[0]!.reason]])
    // The grades went into the document: the set is read again.
    await expect.poll(() => sent('sets:get').length).toBeGreaterThan(1)

    fake.answers['judges:start'] = judgeStatus('World cities', { runId: 'r2', state: 'done', phase: 'done', graded: 1, calls: 1, left: 0 })
    await screen.getByRole('button', { name: 'Retry failed' }).click()
    await expect.poll(() => sent('judges:start').length).toBe(2)
    expect(sent('judges:start')[1]).toMatchObject({ judge: 'demo', set: 'World cities', scope: 'stale', budgetCalls: 50, dryRun: false, retryOf: 'r1' })
    await expect.element(screen.getByText('Done: 1 graded, 1 call, 0 tokens.')).toBeVisible()
  })

  it('Cancel stops the run and says what it kept', async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities') })
    fake.hold('judges:status')
    fake.answers['judges:cancel'] = judgeStatus('World cities', { state: 'cancelled', graded: 3, calls: 3, left: 167 })
    fake.answers['workspace:current'] = { workspace: judgesView(SET), draft: null }
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await screen.getByRole('button', { name: 'Cancel' }).click()
    await expect.element(screen.getByText('Cancelled: 3 graded, 167 left.')).toBeVisible()
    expect(sent('judges:cancel')).toEqual([{ runId: 'r1' }])
  })

  it('deletes a judge once asked', async () => {
    window.confirm = () => true
    const screen = await mount({ 'judges:delete': judgesView(SET, [DEMO_JUDGE]) })
    await screen.getByRole('button', { name: 'Delete judge gpt' }).click()
    await expect.element(screen.getByRole('button', { name: 'Edit judge gpt' })).not.toBeInTheDocument()
    expect(sent('judges:delete')).toEqual([{ name: 'gpt' }])
  })
})
