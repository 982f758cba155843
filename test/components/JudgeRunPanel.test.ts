import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { JudgeEstimate } from '../../src/shared/ipc/judge-contract'
import type { EvaluationHead } from '../../src/shared/relevance/evaluation-head'
import { DEFAULT_SCALE, DEFAULT_SETTINGS } from '../../src/shared/relevance/query-set'
import { TWO_QUERY_SET } from './demo-set-view'
import { DEMO_JUDGE, GPT_JUDGE, judgeStatus, judgesView } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * Judging the Evaluation view's set with a judge: Estimate (a dry run that
 * costs nothing) says the calls and tokens, what the cache has, the stale
 * and the graded; Judge starts a run with the depth, items, budget and
 * concurrency chosen, the budget of calls required; the progress and
 * Cancel; a run stopped at its budget said plainly as a status (the run did
 * as told, not an error); the failures with their reason and Retry failed
 * on them alone. With an evaluation of the set kept and shown, the run may
 * instead be of the first N pairs of its What to judge next queue.
 */

const fake = bridgeForFile()

const ESTIMATE: JudgeEstimate = { calls: 1240, inputTokens: 1_100_000, outputTokens: 74_400, cached: 12, current: 2, stale: 3, text: 'about 1,240 calls, 1.1 M input tokens' }
const SET_VIEW = { workspace: judgesView(TWO_QUERY_SET), draft: null }

/** A kept evaluation of the set, run on the Demo's production config: what Figures shows (the newest kept is shown). */
const SCORED = {
  metrics: ['ndcg@10'],
  queries: [{ id: 'q01', text: 'paris', scores: { 'ndcg@10': 0.8 }, unjudged: 4, returned: 10, error: null }, { id: 'q02', text: 'rome', scores: { 'ndcg@10': 0.5 }, unjudged: 6, returned: 10, error: null }],
  means: { 'ndcg@10': 0.65 }, counted: 2, unjudgedQueries: 0, failed: 0, unjudged: 10,
}
const HEAD: EvaluationHead = {
  id: 'e7', set: TWO_QUERY_SET.name, workspace: 'world', target: { connectionId: 'c1', config: 'production' }, targetText: 'Demo, config production',
  at: '2026-01-02T10:00:00.000Z', depth: 100, judgeDepth: 10, settings: DEFAULT_SETTINGS, scale: DEFAULT_SCALE, setDigest: 'a', judgmentsDigest: 'b',
  state: 'done', durationMs: 5, scored: SCORED, rankingCount: 2, previews: {},
}
function keptEvaluation() {
  const { rankingCount: _r, previews: _p, scored: { queries: _q, ...means }, ...summary } = HEAD
  return { 'eval:list': [{ ...summary, scored: means }], 'eval:get': HEAD, 'eval:scored': SCORED }
}

/** The window's store of the last mount (a test chooses another set in it, as the Evaluation view does). */
let shownPinia: ReturnType<typeof demoWindow>

async function mount(answers: Record<string, unknown> = {}) {
  const pinia = (shownPinia = demoWindow(fake, { 'sets:get': TWO_QUERY_SET, 'eval:list': [], 'workspace:current': SET_VIEW, ...answers }))
  const [{ default: JudgeRunPanel }, { useWorkspaceStore }, { useConnectionsStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/JudgeRunPanel.vue'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/stores/connections'),
  ])
  // The window has listed its connections (the run names the one it fetches on) and shows the workspace.
  await useConnectionsStore(pinia).load()
  useWorkspaceStore(pinia).show(judgesView(TWO_QUERY_SET))
  const screen = await render(JudgeRunPanel, { props: { judge: DEMO_JUDGE }, global: { plugins: [pinia] } })
  // The set is read: the run names it.
  await expect.element(screen.getByRole('heading', { name: 'Judge World cities with demo' })).toBeVisible()
  return screen
}

/** The Evaluation view chooses another set, of the same queries, named `name`. */
async function chooseSet(name: string) {
  const { useQuerySetsStore } = await import('../../src/renderer/stores/query-sets')
  fake.answers['sets:get'] = { ...TWO_QUERY_SET, name }
  await useQuerySetsStore(shownPinia).choose(name)
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)
const cells = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent!.replace(/\s+/g, ' ').trim()))

describe('JudgeRunPanel', () => {
  it("estimates with a dry run of the judge's depth and the default budget: calls and tokens, the cache, the stale, the graded", async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities', { state: 'done', phase: 'done', estimate: ESTIMATE }) })
    await expect.element(screen.getByText("each query's top results on Demo, the template's own config", { exact: false })).toBeVisible()
    await screen.getByRole('button', { name: 'Estimate' }).click()
    const status = screen.getByRole('status').filter({ hasText: 'about 1,240 calls' })
    await expect.element(status).toHaveTextContent(/^about 1,240 calls, 1\.1 M input tokens · 12 from the cache · 3 stale · 2 already graded\./)
    await expect.element(status).toHaveTextContent('3 grades are stale (another prompt, model or item content): choose Items "Ungraded and stale" to grade them again.')
    expect(sent('judges:start')).toEqual([
      { runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1' }, depth: 5, scope: 'ungraded', budgetCalls: 1000, concurrency: 4, dryRun: true },
    ])
    // An Estimate grades nothing: no end of a run is told, the set is not read again.
    expect(screen.getByText(/^Done:/).query()).toBeNull()
    expect(sent('workspace:current')).toEqual([])

    // Another choice is another estimate: this one is no longer shown.
    await screen.getByRole('combobox', { name: 'Items to judge' }).selectOptions('stale')
    await expect.element(screen.getByText(/about 1,240 calls/)).not.toBeInTheDocument()
  })

  it('judges with the depth, items, budget of calls and tokens and concurrency chosen, and shows the progress and Cancel', async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities') })
    fake.hold('judges:status')
    await screen.getByRole('spinbutton', { name: 'Judging depth' }).fill('3')
    await screen.getByRole('combobox', { name: 'Items to judge' }).selectOptions('all')
    await screen.getByRole('spinbutton', { name: 'Budget, calls' }).fill('50')
    await screen.getByRole('spinbutton', { name: 'Budget, tokens (optional)' }).fill('200000')
    await screen.getByRole('spinbutton', { name: 'Judging concurrency' }).fill('2')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    expect(sent('judges:start')).toEqual([
      { runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1' }, depth: 3, scope: 'all', budgetCalls: 50, budgetTokens: 200000, concurrency: 2, dryRun: false },
    ])
    await expect.poll(() => fake.held.length).toBe(1)
    expect(fake.held[0]!.request).toEqual({ runId: 'r1' })
    fake.held.shift()!.answer(judgeStatus('World cities', { graded: 20, cached: 4, calls: 21, tokens: { input: 9000, output: 1200 }, done: 24 }))
    await expect.element(screen.getByRole('progressbar', { name: 'Judging progress' })).toHaveAttribute('aria-valuetext', '24 of 170 graded · 21 calls · 10,200 tokens · 4 from the cache')
    await expect.element(screen.getByRole('button', { name: 'Cancel' })).toBeVisible()
    // One run at a time, its settings as started.
    await expect.element(screen.getByRole('button', { name: 'Judge', exact: true })).toBeDisabled()
    await expect.element(screen.getByRole('button', { name: 'Estimate' })).toBeDisabled()
    await expect.element(screen.getByRole('spinbutton', { name: 'Budget, calls' })).toBeDisabled()

    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.answer(judgeStatus('World cities', { state: 'done', phase: 'done', graded: 44, cached: 4, calls: 45, tokens: { input: 18000, output: 2400 }, done: 48, left: 0 }))
    await expect.element(screen.getByText('Done: 48 graded (4 from the cache), 45 calls, 20,400 tokens.')).toBeVisible()
    await expect.element(screen.getByRole('button', { name: 'Cancel' })).not.toBeInTheDocument()
    await expect.element(screen.getByRole('button', { name: 'Judge', exact: true })).toBeEnabled()
  })

  it('offers What to judge next only when the Evaluation view shows a kept evaluation of the set, and says why not', async () => {
    const screen = await mount()
    const top = screen.getByRole('radio', { name: "Each query's top K" })
    const next = screen.getByRole('radio', { name: 'What to judge next of the evaluation shown: the first N pairs' })
    await expect.element(top).toBeChecked()
    await expect.element(next).toBeDisabled()
    await expect.element(next).toHaveAccessibleDescription('Evaluate the set first: the queue is worked out from the kept evaluation Figures shows.')
    await expect.element(screen.getByRole('spinbutton', { name: 'Judging depth' })).toBeVisible()
    await screen.getByRole('button', { name: 'Estimate' }).click()
    expect(sent('judges:start')[0]).not.toHaveProperty('next')
  })

  it("judges the first N pairs of the evaluation shown's What to judge next queue, on the evaluation's own target, estimated first", async () => {
    const screen = await mount({ ...keptEvaluation(), 'judges:start': judgeStatus('World cities', { state: 'done', phase: 'done', estimate: ESTIMATE }) })
    const next = screen.getByRole('radio', { name: 'What to judge next of the evaluation shown: the first N pairs' })
    await expect.element(next).toBeEnabled()
    await expect.element(next).toHaveAccessibleDescription('The unjudged pairs that could move its figures most, on Demo, config production, as its Judge next walks them.')
    await next.click()
    // The pairs replace the depth (main fetches as deep as the pairs' ranks); 50 until told.
    await expect.element(screen.getByRole('spinbutton', { name: 'Judging depth' })).not.toBeInTheDocument()
    const pairs = screen.getByRole('spinbutton', { name: 'Pairs to judge next' })
    await expect.element(pairs).toHaveValue(50)
    await expect.element(screen.getByText('the first 50 pairs of What to judge next of the evaluation shown, fetched on Demo, config production')).toBeVisible()

    await pairs.fill('20')
    await screen.getByRole('button', { name: 'Estimate' }).click()
    await expect.element(screen.getByRole('status').filter({ hasText: 'about 1,240 calls' })).toBeVisible()
    expect(sent('judges:start')).toEqual([
      {
        runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1', config: 'production' },
        next: { from: 'evaluation', id: 'e7', limit: 20 }, scope: 'ungraded', budgetCalls: 1000, concurrency: 4, dryRun: true,
      },
    ])
    // Each query's top K is another estimate: not shown under it.
    await screen.getByRole('radio', { name: "Each query's top K" }).click()
    await expect.element(screen.getByText(/about 1,240 calls/)).not.toBeInTheDocument()
    await next.click()
    await expect.element(screen.getByText(/about 1,240 calls/)).toBeVisible()

    // The same budget controls; a bound on the pairs, as judges:start has.
    await pairs.fill('1001')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Pairs: a whole number from 1 to 1,000.')
    expect(sent('judges:start')).toHaveLength(1)
    const failures = [{ query: 'q02', item: 'rome-31', reason: 'timed out' }]
    fake.answers['judges:start'] = judgeStatus('World cities', { state: 'done', phase: 'done', graded: 19, calls: 20, left: 0, failedCount: 1, failures })
    await pairs.fill('20')
    await screen.getByRole('spinbutton', { name: 'Budget, calls' }).fill('30')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByText('Done: 19 graded, 1 failed, 20 calls, 0 tokens.')).toBeVisible()
    expect(sent('judges:start')[1]).toEqual({
      runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1', config: 'production' },
      next: { from: 'evaluation', id: 'e7', limit: 20 }, scope: 'ungraded', budgetCalls: 30, concurrency: 4, dryRun: false,
    })

    // Retry failed grades the failures alone, fetched as deep as the evaluation ranked (a pair of the queue may lie past the judge's depth).
    fake.answers['judges:start'] = judgeStatus('World cities', { runId: 'r2', state: 'done', phase: 'done', graded: 1, calls: 1, left: 0 })
    await screen.getByRole('button', { name: 'Retry failed' }).click()
    await expect.element(screen.getByText('Done: 1 graded, 1 call, 0 tokens.')).toBeVisible()
    expect(sent('judges:start')[2]).toEqual({
      runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1', config: 'production' },
      depth: 100, scope: 'ungraded', budgetCalls: 30, concurrency: 4, dryRun: false, retryOf: 'r1',
    })
  })

  it('will not start without a budget of calls, and says why', async () => {
    const screen = await mount()
    const budget = screen.getByRole('spinbutton', { name: 'Budget, calls' })
    await budget.fill('')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Budget, calls: required.')
    await screen.getByRole('button', { name: 'Estimate' }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Budget, calls: required.')

    await budget.fill('0')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Budget, calls: a whole number from 1 to 1,000,000.')
    expect(sent('judges:start')).toEqual([])

    // A budget of tokens is optional, but not 0 either.
    await budget.fill('50')
    await screen.getByRole('spinbutton', { name: 'Budget, tokens (optional)' }).fill('0')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Budget, tokens: a whole number from 1 to 10,000,000,000.')
    expect(sent('judges:start')).toEqual([])
  })

  it('says plainly that a run stopped at its budget, as a status and not an error, lists the failures, and Retry failed grades them alone', async () => {
    const failures = [{ query: 'q02', item: 'rome-9', reason: 'The answer\'s grade 7 is not on the scale (0, 1, 2, 3): "7, very relevant"' }]
    const screen = await mount({
      'judges:start': judgeStatus('World cities', { state: 'done', phase: 'done', graded: 46, cached: 4, calls: 50, tokens: { input: 20000, output: 3000 }, stoppedByBudget: true, left: 120, failedCount: 1, failures }),
    })
    await screen.getByRole('spinbutton', { name: 'Budget, calls' }).fill('50')
    await screen.getByRole('combobox', { name: 'Items to judge' }).selectOptions('stale')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('status').filter({ hasText: 'Stopped' })).toHaveTextContent('Stopped at the budget of 50 calls: 50 graded, 120 left, 1 failed.')
    await expect.element(screen.getByRole('alert')).not.toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Failures (1)' })
    expect(cells(table.element() as HTMLElement)).toEqual([['rome q02', 'rome-9', failures[0]!.reason]])
    // The grades went into the document: the set is read again.
    await expect.poll(() => sent('sets:get').length).toBeGreaterThan(1)

    fake.answers['judges:start'] = judgeStatus('World cities', { runId: 'r2', state: 'done', phase: 'done', graded: 1, calls: 1, left: 0 })
    await screen.getByRole('button', { name: 'Retry failed' }).click()
    await expect.poll(() => sent('judges:start').length).toBe(2)
    expect(sent('judges:start')[1]).toEqual({
      runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1' }, depth: 5, scope: 'stale', budgetCalls: 50, concurrency: 4, dryRun: false, retryOf: 'r1',
    })
    await expect.element(screen.getByText('Done: 1 graded, 1 call, 0 tokens.')).toBeVisible()
    await expect.element(screen.getByRole('button', { name: 'Retry failed' })).not.toBeInTheDocument()
  })

  it('names the budget of tokens when that is the one reached', async () => {
    const screen = await mount({
      'judges:start': judgeStatus('World cities', { state: 'done', phase: 'done', graded: 30, calls: 30, tokens: { input: 180000, output: 20000 }, stoppedByBudget: true, left: 140 }),
    })
    await screen.getByRole('spinbutton', { name: 'Budget, calls' }).fill('50')
    await screen.getByRole('spinbutton', { name: 'Budget, tokens (optional)' }).fill('200000')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByText('Stopped at the budget of 200,000 tokens: 30 graded, 140 left.')).toBeVisible()
    await expect.element(screen.getByRole('alert')).not.toBeInTheDocument()
  })

  it("tells a run that failed as an error, in main's words", async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities', { state: 'failed', phase: 'done', message: 'The set\'s results could not be fetched: connection refused.' }) })
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('alert')).toHaveTextContent("The set's results could not be fetched: connection refused.")
  })

  it('Cancel stops the run and says what it kept', async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities') })
    fake.hold('judges:status')
    fake.answers['judges:cancel'] = judgeStatus('World cities', { state: 'cancelled', graded: 3, calls: 3, left: 167 })
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await screen.getByRole('button', { name: 'Cancel' }).click()
    await expect.element(screen.getByText('Cancelled: 3 graded, 167 left.')).toBeVisible()
    expect(sent('judges:cancel')).toEqual([{ runId: 'r1' }])
    await expect.element(screen.getByRole('button', { name: 'Cancel' })).not.toBeInTheDocument()
  })

  it('keeps a run shown, named, with Cancel, when another judge or set is chosen, and says why Estimate and Judge are disabled', async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities') })
    fake.hold('judges:status')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.answer(judgeStatus('World cities', { graded: 20, calls: 20, done: 20 }))
    const why = 'demo is judging World cities: wait for it or Cancel.'
    await expect.element(screen.getByRole('button', { name: 'Judge', exact: true })).toHaveAccessibleDescription(why)

    // Another judge chosen (or this one renamed): the run of demo is still shown, named, and can be cancelled.
    await screen.rerender({ judge: GPT_JUDGE })
    await expect.element(screen.getByRole('heading', { name: 'Judge World cities with gpt' })).toBeVisible()
    await expect.element(screen.getByText('demo is judging World cities:', { exact: true })).toBeVisible()
    await expect.element(screen.getByRole('progressbar', { name: 'Judging progress' })).toHaveAttribute('aria-valuetext', '20 of 170 graded · 20 calls · 0 tokens')
    await expect.element(screen.getByRole('button', { name: 'Estimate' })).toBeDisabled()
    await expect.element(screen.getByRole('button', { name: 'Estimate' })).toHaveAccessibleDescription(why)
    await expect.element(screen.getByRole('button', { name: 'Judge', exact: true })).toHaveAccessibleDescription(why)

    // Another set chosen: the same.
    await chooseSet('Capitals')
    await expect.element(screen.getByRole('heading', { name: 'Judge Capitals with gpt' })).toBeVisible()
    await expect.element(screen.getByText('demo is judging World cities:', { exact: true })).toBeVisible()
    fake.answers['judges:cancel'] = judgeStatus('World cities', { state: 'cancelled', graded: 20, calls: 20, left: 150 })
    await screen.getByRole('button', { name: 'Cancel' }).click()
    expect(sent('judges:cancel')).toEqual([{ runId: 'r1' }])
    await expect.element(screen.getByRole('button', { name: 'Cancel' })).not.toBeInTheDocument()
    await expect.element(screen.getByRole('button', { name: 'Judge', exact: true })).toBeEnabled()
    await expect.element(screen.getByRole('button', { name: 'Judge', exact: true })).not.toHaveAccessibleDescription(why)
  })

  it("shows a run's end and failures under its own set only", async () => {
    const failures = [{ query: 'q02', item: 'rome-9', reason: 'timed out' }]
    const screen = await mount({ 'judges:start': judgeStatus('World cities', { state: 'done', phase: 'done', graded: 9, calls: 10, left: 0, failedCount: 1, failures }) })
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByText('Done: 9 graded, 1 failed, 10 calls, 0 tokens.')).toBeVisible()
    await expect.element(screen.getByRole('button', { name: 'Retry failed' })).toBeEnabled()

    await chooseSet('Capitals')
    await expect.element(screen.getByRole('heading', { name: 'Judge Capitals with demo' })).toBeVisible()
    await expect.element(screen.getByText(/^Done:/)).not.toBeInTheDocument()
    await expect.element(screen.getByRole('table', { name: 'Failures (1)' })).not.toBeInTheDocument()
    await expect.element(screen.getByRole('button', { name: 'Retry failed' })).not.toBeInTheDocument()

    await chooseSet('World cities')
    await expect.element(screen.getByText('Done: 9 graded, 1 failed, 10 calls, 0 tokens.')).toBeVisible()
  })

  it('counts the queries fetched before grading, in the phase’s words, on the bar too', async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities', { phase: 'fetching results', done: 0, total: 25, left: 0 }) })
    fake.hold('judges:status')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    const bar = screen.getByRole('progressbar', { name: 'Judging progress' })
    await expect.element(bar).toHaveAttribute('aria-valuetext', 'Fetching results: 0 of 25 queries')
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.answer(judgeStatus('World cities', { phase: 'fetching results', done: 12, total: 25, left: 0 }))
    await expect.element(bar).toHaveAttribute('aria-valuetext', 'Fetching results: 12 of 25 queries')
    expect((bar.element() as HTMLProgressElement).value).toBe(12)
    expect((bar.element() as HTMLProgressElement).max).toBe(25)
    await expect.element(screen.getByText('Fetching results: 12 of 25 queries', { exact: true })).toBeVisible()
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.answer(judgeStatus('World cities', { phase: 'fetching few-shot examples', done: 3, total: 4, left: 0 }))
    await expect.element(bar).toHaveAttribute('aria-valuetext', 'Fetching few-shot examples: 3 of 4 queries')
  })

  it('keeps the failures and Retry failed of the last run after an Estimate, and retries with that run’s choices', async () => {
    const failures = [{ query: 'q02', item: 'rome-9', reason: 'timed out' }]
    const screen = await mount({ 'judges:start': judgeStatus('World cities', { state: 'done', phase: 'done', graded: 9, calls: 10, left: 0, failedCount: 1, failures }) })
    await screen.getByRole('spinbutton', { name: 'Budget, calls' }).fill('40')
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('table', { name: 'Failures (1)' })).toBeVisible()

    fake.answers['judges:start'] = judgeStatus('World cities', { runId: 'r2', state: 'done', phase: 'estimated', estimate: ESTIMATE })
    await screen.getByRole('spinbutton', { name: 'Budget, calls' }).fill('60')
    await screen.getByRole('button', { name: 'Estimate' }).click()
    await expect.element(screen.getByText(/about 1,240 calls/)).toBeVisible()
    await expect.element(screen.getByText('Done: 9 graded, 1 failed, 10 calls, 0 tokens.')).toBeVisible()
    await expect.element(screen.getByRole('table', { name: 'Failures (1)' })).toBeVisible()

    fake.answers['judges:start'] = judgeStatus('World cities', { runId: 'r3', state: 'done', phase: 'done', graded: 1, calls: 1, left: 0 })
    await screen.getByRole('button', { name: 'Retry failed' }).click()
    await expect.element(screen.getByText('Done: 1 graded, 1 call, 0 tokens.')).toBeVisible()
    expect(sent('judges:start')[2]).toEqual({
      runId: expect.any(String), judge: 'demo', set: 'World cities', target: { connectionId: 'c1' }, depth: 5, scope: 'ungraded', budgetCalls: 40, concurrency: 4, dryRun: false, retryOf: 'r1',
    })
  })

  it("says main's words for a cancel before grading, and main's notes after its own end", async () => {
    const screen = await mount({ 'judges:start': judgeStatus('World cities', { phase: 'fetching results', done: 3, total: 25, left: 0 }) })
    fake.hold('judges:status')
    fake.answers['judges:cancel'] = judgeStatus('World cities', { state: 'cancelled', phase: 'fetching results', done: 3, total: 25, left: 0, message: 'Cancelled while fetching the results: nothing was graded.' })
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await screen.getByRole('button', { name: 'Cancel' }).click()
    await expect.element(screen.getByRole('status').filter({ hasText: 'Cancelled' })).toHaveTextContent(/^Cancelled while fetching the results: nothing was graded\.$/)

    const notes =
      " (2 failures of the earlier run were not kept, so not retried: judge the set again for them) (the results of 1 few-shot examples' queries could not be fetched: their examples were left out)"
    fake.answers['judges:start'] = judgeStatus('World cities', { runId: 'r2', state: 'done', phase: 'done', graded: 5, calls: 5, left: 0, message: `5 graded, 0 from the cache${notes} as llm:demo.` })
    await screen.getByRole('button', { name: 'Judge', exact: true }).click()
    await expect.element(screen.getByRole('status').filter({ hasText: 'Done' })).toHaveTextContent(`Done: 5 graded, 5 calls, 0 tokens.${notes}`)
  })
})
