import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { userEvent, type Locator } from 'vitest/browser'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { Scored } from '../../src/shared/relevance/evaluation'
import type { EvaluationHead } from '../../src/shared/relevance/evaluation-head'
import { DEFAULT_SCALE, DEFAULT_SETTINGS, type QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import { DEMO_CONNECTION } from '../renderer/fake-bridge'
import { agreementOf, THREE_RATERS } from './agreement-fixture'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The Evaluation view on a kept evaluation: the means as main scores them
 * again with the judgments as they are now (not as kept), what the means
 * count and leave out, the unjudged results in words, the query table in the
 * order its headers choose, Judge on just the queries with unjudged results,
 * a query opened in the grid on the target it was evaluated on, and the TREC
 * run written. With no set, the view says how to start.
 */

const fake = bridgeForFile()

const SET: QuerySet = {
  name: 'World cities',
  query: 'City search',
  queries: [{ id: 'q01', text: 'paris' }, { id: 'q02', text: 'rome' }, { id: 'q03', text: 'lima' }],
  judgments: [{ query: 'q01', item: 'paris-1', rater: 'r1', grade: 3 }, { query: 'q02', item: 'rome-1', rater: 'r1', grade: 2 }],
}

function view(sets: QuerySet[] = [SET]): WorkspaceView {
  const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, ...described } = DEMO_CONNECTION
  return {
    name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, tests: [], sets: sets.map(setSummary),
    queries: [{
      name: 'City search', connection: 'demo', notes: '',
      request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: '{{query}}' } }], responseType: 'results', options: { count: 50 } },
    }],
    bindings: [{ fileConnectionId: 'demo', connectionId: 'c1', how: 'same', connection: { id: 'demo', ...described } }],
  }
}

/** paris and rome have figures (paris with 2 results unjudged), lima failed. */
function scored(parisNdcg: number): Scored {
  return {
    metrics: ['ndcg@10', 'p@10'],
    queries: [
      { id: 'q01', text: 'paris', scores: { 'ndcg@10': parisNdcg, 'p@10': 0.3 }, unjudged: 2, returned: 10, error: null },
      { id: 'q02', text: 'rome', scores: { 'ndcg@10': 0.5, 'p@10': 0.6 }, unjudged: 0, returned: 10, error: null },
      { id: 'q03', text: 'lima', scores: null, unjudged: 0, returned: 0, error: 'The service answered 500' },
    ],
    means: { 'ndcg@10': (parisNdcg + 0.5) / 2, 'p@10': 0.45 },
    counted: 2, unjudgedQueries: 0, failed: 1, unjudged: 2,
  }
}

const HEAD: EvaluationHead = {
  id: 'e1', set: SET.name, workspace: 'world', target: { connectionId: 'c1', config: 'production' }, targetText: 'Demo, config production',
  at: '2026-01-02T10:00:00.000Z', depth: 100, judgeDepth: 10, settings: DEFAULT_SETTINGS, scale: DEFAULT_SCALE, setDigest: 'a', judgmentsDigest: 'b',
  state: 'done', durationMs: 5, scored: scored(0.9), rankingCount: 3, previews: {},
}

async function mount(sets: QuerySet[] = [SET], answers: Record<string, unknown> = {}) {
  const { rankingCount: _r, previews: _p, scored: { queries: _q, ...means }, ...summary } = HEAD
  const pinia = demoWindow(fake, {
    'sets:get': SET,
    'eval:list': [{ ...summary, scored: means }],
    'eval:get': HEAD,
    // Scored again with a judgment made since it ran: paris 0.9 → 1.0.
    'eval:scored': scored(1),
    ...answers,
  })
  fake.hold('query:run')
  const [{ default: EvaluationView }, { useConnectionsStore }, { useWorkspaceStore }, { useToastsStore }] = await Promise.all([
    import('../../src/renderer/components/relevance/EvaluationView.vue'),
    import('../../src/renderer/stores/connections'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/stores/toasts'),
  ])
  await useConnectionsStore(pinia).load()
  useWorkspaceStore(pinia).show(view(sets))
  const screen = await render(EvaluationView, { global: { plugins: [pinia] } })
  const region = screen.getByRole('region', { name: 'Evaluation' })
  const toasts = () => useToastsStore(pinia).toasts.map((toast) => toast.message)
  return { screen, region, toasts, pinia }
}

/** The query table's row headers, top to bottom. */
const order = (table: Locator) => table.getByRole('rowheader').elements().map((cell) => cell.querySelector('span')!.textContent)

/** What to judge next in e1 as main works it out: paris's figures could move, rome's cannot; one pair to judge, an item today's results no longer hold. */
const JUDGE_NEXT = {
  metrics: ['ndcg@10', 'p@10'],
  queries: [
    { id: 'q01', text: 'paris', unjudged: 2, figures: { 'ndcg@10': { current: 1, low: 0.8, high: 1 }, 'p@10': { current: 0.3, low: 0.3, high: 0.5 } } },
    { id: 'q02', text: 'rome', unjudged: 0, figures: { 'ndcg@10': { current: 0.5, low: 0.5, high: 0.5 }, 'p@10': { current: 0.6, low: 0.6, high: 0.6 } } },
    { id: 'q03', text: 'lima', unjudged: 0, figures: null },
  ],
  means: { 'ndcg@10': { current: 0.75, low: 0.65, high: 0.75 }, 'p@10': { current: 0.45, low: 0.45, high: 0.55 } },
  counted: 2,
  unjudged: 2,
  queue: [
    { query: 'q01', text: 'paris', item: 'paris-7', label: 'Paris seven', ranks: [3], priority: 0.3, effects: [{ metric: 'p@10', other: null, effect: 0.2 }], why: 'rank 3; could move P@10 by about 0.200 on this query' },
  ],
  total: 1,
  summary: '1 unjudged pair could move the means: nDCG@10 0.750 (between 0.650 and 0.750), P@10 0.450 (between 0.450 and 0.550).',
}

describe('EvaluationView', () => {
  it("shows the kept evaluation's means as scored now, what they count, and the unjudged results in words", async () => {
    const { region } = await mount()
    const means = region.getByRole('list', { name: 'Means' })
    await expect.element(means.getByRole('listitem').first()).toHaveTextContent(/^nDCG@10\s*0\.750$/)
    await expect.element(means.getByRole('listitem').nth(1)).toHaveTextContent(/^P@10\s*0\.450$/)
    await expect.element(region.getByText('means over 2 of 3 queries · 1 failed')).toBeVisible()
    await expect.element(region.getByText('exponential gain (2^g − 1) · unjudged results count as not relevant · relevant from grade 1 (Fair) · depth 100')).toBeVisible()
    await expect.element(region.getByRole('status').filter({ hasText: 'unjudged' })).toHaveTextContent('2 unjudged results in the top 10 of 1 query.')
    await expect.element(region.getByRole('combobox', { name: 'Kept evaluation' })).toHaveTextContent('Demo, config production · nDCG@10 0.750')
    // Each query's figures; the failed one says why.
    const table = region.getByRole('table', { name: "Each query's figures on Demo, config production" })
    await expect.element(table.getByRole('row').filter({ hasText: 'paris' })).toHaveTextContent(/^paris\s*q01\s*1\.000\s*0\.300\s*2/)
    await expect.element(table.getByRole('row').filter({ hasText: 'lima' })).toHaveTextContent('The service answered 500')
    expect(fake.calls.filter((call) => call.channel === 'eval:scored').at(-1)?.request).toEqual({ id: 'e1', settings: DEFAULT_SETTINGS })
  })

  it('shows each mean and figure with where it could go were the unjudged judged; Judge next walks the queue, and the intervals are asked for again after a rating', async () => {
    const { region, screen } = await mount([SET], { 'eval:judge-next': JUDGE_NEXT, 'sets:rate': view(), 'query:cancel': { cancelled: true } })
    const means = region.getByRole('list', { name: 'Means' })
    await expect.element(means.getByRole('listitem').first()).toHaveTextContent(/^nDCG@10\s*0\.750\s*0\.650–0\.750 with the unjudged judged$/)
    await expect.element(means.getByRole('listitem').nth(1)).toHaveTextContent(/^P@10\s*0\.450\s*0\.450–0\.550 with the unjudged judged$/)
    await expect.element(region.getByText('Under a figure: the range it could take with the unjudged results in the top 10 judged, from the lowest grade to the highest.')).toBeVisible()
    await expect.element(region.getByRole('status').filter({ hasText: 'could move the means' })).toHaveTextContent(JUDGE_NEXT.summary)
    expect(fake.calls.filter((call) => call.channel === 'eval:judge-next').map((call) => call.request)).toEqual([{ id: 'e1', limit: 200 }])
    // Each query's figure with its interval under it, as text; rome's cannot move, so it has none.
    const table = region.getByRole('table', { name: /^Each query's figures/ })
    await expect.element(table.getByRole('row').filter({ hasText: 'paris' })).toHaveTextContent(/^paris\s*q01\s*1\.000\s*0\.800–1\.000\s*0\.300\s*0\.300–0\.500\s*2/)
    await expect.element(table.getByRole('row').filter({ hasText: 'rome' })).toHaveTextContent(/^rome\s*q02\s*0\.500\s*0\.600\s*0/)

    await region.getByRole('button', { name: 'Judge next' }).click()
    const dialog = screen.getByRole('dialog', { name: 'Judge results' })
    await expect.element(dialog.getByRole('heading', { name: 'Unrated of What to judge next' })).toBeVisible()
    await expect.element(dialog.getByRole('listitem')).toHaveTextContent('paris')
    await expect.poll(() => fake.held.length).toBe(1)
    // paris-7 is not in paris's results today: it is asked about by the name it was kept with.
    fake.held[0]!.answer({ url: 'http://127.0.0.1/query', status: 200, contentType: 'application/json', bytes: 1, body: { items: [] }, timings: { connectMs: 0, firstByteMs: 1, totalMs: 1 }, cached: false })
    const card = dialog.getByRole('region', { name: 'Item to judge' })
    await expect.element(card).toHaveTextContent('Paris seven')
    await userEvent.keyboard('2')
    await expect.element(card).toHaveTextContent('Every item of What to judge next is rated.')
    expect(fake.calls.filter((call) => call.channel === 'sets:rate').map((call) => call.request)).toEqual([{ set: SET.name, query: 'q01', item: 'paris-7', grade: 2 }])
    // The rating changed the set: What to judge next is asked for again.
    await expect.poll(() => fake.calls.filter((call) => call.channel === 'eval:judge-next').length).toBeGreaterThan(1)
  })

  it('sorts the query table by the header clicked: a figure highest first, then reversed; the query A to Z', async () => {
    const { region } = await mount()
    const table = region.getByRole('table', { name: /^Each query's figures/ })
    await expect.element(table.getByRole('row').filter({ hasText: 'lima' })).toBeVisible()
    const rows = () => order(table)
    expect(rows()).toEqual(['paris', 'rome', 'lima'])

    await table.getByRole('button', { name: 'nDCG@10' }).click()
    await expect.element(table.getByRole('columnheader', { name: 'nDCG@10' })).toHaveAttribute('aria-sort', 'descending')
    // A failed query has no figure: it sorts below every figure.
    expect(rows()).toEqual(['paris', 'rome', 'lima'])
    await table.getByRole('button', { name: 'P@10' }).click()
    expect(rows()).toEqual(['rome', 'paris', 'lima'])
    await table.getByRole('button', { name: 'P@10' }).click()
    await expect.element(table.getByRole('columnheader', { name: 'P@10' })).toHaveAttribute('aria-sort', 'ascending')
    expect(rows()).toEqual(['lima', 'paris', 'rome'])
    await table.getByRole('button', { name: 'Query' }).click()
    expect(rows()).toEqual(['lima', 'paris', 'rome'])
    await expect.element(table.getByRole('columnheader', { name: 'P@10' })).toHaveAttribute('aria-sort', 'none')
  })

  it('judges only the queries with unjudged results, and opens a query in the grid on the target it was evaluated on', async () => {
    const { region, screen } = await mount()
    await expect.element(region.getByRole('button', { name: 'Judge “rome”' })).toBeDisabled()
    await region.getByRole('button', { name: 'Judge these' }).click()
    const dialog = screen.getByRole('dialog', { name: 'Judge results' })
    await expect.element(dialog).toBeVisible()
    await expect.element(dialog.getByRole('listitem')).toHaveTextContent('paris')
    expect(dialog.getByRole('listitem').elements()).toHaveLength(1)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect.element(dialog).not.toBeInTheDocument()

    fake.held.length = 0
    await region.getByRole('button', { name: 'Open “rome” in the grid' }).click()
    await expect.poll(() => fake.held.length).toBeGreaterThan(0)
    expect(fake.held.at(-1)!.request).toMatchObject({
      connectionId: 'c1',
      request: { steps: [{ endpoint: 'search', parameters: { query: 'rome' } }], options: { config: 'production' } },
    })
  })

  it('writes the TREC run of the evaluation shown, and says so', async () => {
    const { region, toasts } = await mount()
    fake.answers['eval:run-file'] = { fileName: 'world-cities.run', queries: 2 }
    await region.getByRole('button', { name: 'Export TREC run' }).click()
    await expect.poll(toasts).toContain('Exported the TREC run of 2 queries: world-cities.run.')
    expect(fake.calls.filter((call) => call.channel === 'eval:run-file').map((call) => call.request)).toEqual([{ id: 'e1' }])
  })

  it("exports judgments with the grades chosen: as each format keeps them by default, the aggregate, or one rater's", async () => {
    const { region } = await mount()
    fake.answers['sets:export'] = { fileName: 'World cities.qrels', judgments: 2, downloadUrl: null }
    await region.getByText('Export judgments').click()
    const grades = region.getByRole('combobox', { name: 'Grades to export' })
    await expect.element(grades).toBeVisible()
    expect([...(grades.element() as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      "Each rater's in Quepid CSV, the aggregate in qrels and RRE",
      'The aggregate (mean), a fraction rounded half up',
      "r1's grades",
    ])
    const exports = () => fake.calls.filter((call) => call.channel === 'sets:export').map((call) => call.request)
    const menu = region.getByRole('group', { name: 'Export judgments as' })
    await menu.getByRole('button', { name: 'Quepid CSV' }).click()
    await grades.selectOptions("r1's grades")
    await menu.getByRole('button', { name: 'TREC qrels' }).click()
    await grades.selectOptions('The aggregate (mean), a fraction rounded half up')
    await menu.getByRole('button', { name: 'RRE ratings JSON' }).click()
    await expect.poll(() => exports().length).toBe(3)
    expect(exports()).toEqual([
      { set: 'World cities', format: 'quepid-csv' },
      { set: 'World cities', format: 'trec-qrels', grades: { kind: 'rater', rater: 'r1' } },
      { set: 'World cities', format: 'rre-json', grades: { kind: 'aggregate' } },
    ])
  })

  it('shows the Agreement part on its tab; a disagreement\'s Open opens its query in the grid as the query table\'s Open does, the item marked', async () => {
    const { region, pinia } = await mount()
    // The results panel beside the view, as the window has it: the answer's rows come there.
    const { default: ResultsPanel } = await import('../../src/renderer/components/results/ResultsPanel.vue')
    const box = document.body.appendChild(document.createElement('div'))
    box.style.cssText = 'height: 500px; width: 1000px; display: grid'
    const results = await render(ResultsPanel, { global: { plugins: [pinia] }, container: box })
    fake.answers['sets:agreement'] = agreementOf(THREE_RATERS)
    await region.getByRole('tab', { name: 'Agreement' }).click()
    await expect.element(region.getByRole('tab', { name: 'Agreement' })).toHaveAttribute('aria-selected', 'true')
    const part = region.getByRole('tabpanel', { name: 'Agreement' })
    await expect.element(part.getByRole('table', { name: 'Pairs of raters' })).toBeVisible()
    expect(region.getByRole('button', { name: 'Evaluate' }).elements()).toHaveLength(0)

    fake.held.length = 0
    await part.getByRole('button', { name: 'Open “paris” in Results, p1 marked' }).click()
    await expect.poll(() => fake.held.length).toBeGreaterThan(0)
    expect(fake.held.at(-1)!.request).toMatchObject({
      connectionId: 'c1',
      request: { steps: [{ endpoint: 'search', parameters: { query: 'paris' } }], options: { config: 'production' } },
    })
    // The answer comes: p1, third of its rows, is marked and active, and a digit rates it.
    const cities = ['p3', 'p2', 'p1', 'p4'].map((id, i) => ({ rank: i + 1, probability: 0.9 - i / 10, tuple: [{ id, class: ['city'], attributes: { name: `Paris ${id}` } }] }))
    for (const run of fake.held.splice(0)) {
      const { responseType } = run.request.request as { responseType: string }
      run.answer({ url: 'http://127.0.0.1/query', status: 200, contentType: 'application/json', bytes: 1, body: responseType === 'statistics' ? { total: 4, stats: [] } : { items: cities }, timings: { connectMs: 0, firstByteMs: 1, totalMs: 1 }, cached: false })
    }
    const marked = results.getByRole('row').filter({ hasText: 'Paris p1' })
    await expect.element(marked).toHaveAttribute('aria-current', 'true')
    expect(results.getByRole('grid').element().querySelectorAll('[aria-current]')).toHaveLength(1)
    await expect.poll(() => document.activeElement?.textContent).toBe('Paris p1')
    fake.answers['sets:rate'] = view()
    await userEvent.keyboard('1')
    await expect.poll(() => fake.calls.filter((call) => call.channel === 'sets:rate').map((call) => call.request)).toEqual([{ set: SET.name, query: 'q01', item: 'p1', grade: 1 }])
    await region.getByRole('tab', { name: 'Figures' }).click()
    await expect.element(region.getByRole('table', { name: /^Each query's figures/ })).toBeVisible()
  })

  it('with no set says how to start, and offers nothing that needs one', async () => {
    const { region } = await mount([])
    await expect.element(region.getByText('No query set in this workspace yet.')).toBeVisible()
    await expect.element(region.getByRole('button', { name: 'New set' })).toBeEnabled()
    for (const name of ['Edit set', 'Delete set', 'Import judgments']) await expect.element(region.getByRole('button', { name })).toBeDisabled()
    expect(region.getByRole('button', { name: 'Evaluate' }).elements()).toHaveLength(0)
  })
})
