import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { ExperimentRecord, QueryDelta } from '../../src/shared/experiments/experiment-record'
import { settle } from '../renderer/fake-bridge'
import { bridgeForFile, demoWindow, NOTHING_KEPT } from './mount-with-bridge'

/**
 * The query table of an experiment: a win or a loss that unjudged results
 * could still change says so and offers to judge them (a tie, or a query
 * without a delta, does not); sorted by Δ, the queries without one go last;
 * Compare hands the query to the compare view; failed queries are listed by side.
 */

const fake = bridgeForFile()

const delta = (id: string, text: string, figures: Partial<QueryDelta>): QueryDelta => ({ id, text, baseline: 0.5, other: 0.5, delta: 0, unjudged: 0, failed: null, ...figures })

const RECORD = {
  id: 'x1', set: 'World cities', workspace: 'world', at: '2026-01-02T10:00:00.000Z', depth: 100, judgeDepth: 10,
  settings: { gain: 'exponential', unjudged: 'zero', threshold: 1 }, scale: [{ grade: 0, label: 'Poor' }, { grade: 1, label: 'Fair' }],
  sides: [
    { label: 'Demo, config default', target: { connectionId: 'c1', config: 'default' }, evaluationId: 'e1', means: {} },
    { label: 'Demo, config production', target: { connectionId: 'c1', config: 'production' }, evaluationId: 'e2', means: {} },
  ],
  attribution: [],
  stats: {
    metrics: ['ndcg@10'], alpha: 0.05, family: 1, comparisons: [],
    deltas: {
      '0:ndcg@10': [
        delta('q01', 'paris', { baseline: 0.9, other: 0.7, delta: -0.2, unjudged: 3 }),
        delta('q02', 'lisbon', { unjudged: 2 }),
        delta('q03', 'rome', { baseline: 0.6, other: 0.7, delta: 0.1, unjudged: 1 }),
        delta('q04', 'oslo', { other: null, delta: null, failed: 'other' }),
      ],
    },
    failed: [{ side: 0, id: 'q04', text: 'oslo', error: 'The service answered 500.' }],
  },
  state: 'done', durationMs: 1200, reused: 0,
} as ExperimentRecord

async function mount() {
  const pinia = demoWindow(fake, NOTHING_KEPT)
  const [{ default: ExperimentQueries }, { useExperimentsStore }] = await Promise.all([
    import('../../src/renderer/components/experiments/ExperimentQueries.vue'),
    import('../../src/renderer/stores/experiments'),
  ])
  const store = useExperimentsStore(pinia)
  await settle()
  store.shown = RECORD
  const compared: string[] = []
  store.compareQuery = async (id: string) => void compared.push(id)
  const screen = await render(ExperimentQueries, { props: { label: 'nDCG@10' }, global: { plugins: [pinia] } })
  return { screen, compared }
}

describe('ExperimentQueries', () => {
  it('flags the wins and losses that rest on unjudged results, sorts by Δ with the missing last, compares a query, lists the failed', async () => {
    const { screen, compared } = await mount()
    const table = screen.getByRole('table', { name: 'nDCG@10 of each query on A and B' })
    const row = (text: string) => table.getByRole('row', { name: new RegExp(`^${text} `) })
    await expect.element(row('paris')).toHaveTextContent('this loss rests on 3 unjudged results')
    await expect.element(row('rome')).toHaveTextContent('this win rests on 1 unjudged result:')
    expect(row('lisbon').element().textContent).not.toContain('rests on')
    await expect.element(row('paris').getByRole('button', { name: 'Judge them: “paris”' })).toBeVisible()
    expect(row('lisbon').getByRole('button', { name: /^Judge them/ }).elements()).toHaveLength(0)
    await expect.element(row('oslo')).toHaveTextContent('failed')

    const header = table.getByRole('columnheader', { name: 'Δ' })
    await header.getByRole('button').click()
    await expect.element(header).toHaveAttribute('aria-sort', 'descending')
    const order = () => table.getByRole('rowheader').elements().map((cell) => cell.textContent?.split(' ')[0])
    expect(order()).toEqual(['rome', 'lisbon', 'paris', 'oslo'])
    await header.getByRole('button').click()
    await expect.element(header).toHaveAttribute('aria-sort', 'ascending')
    expect(order()).toEqual(['paris', 'lisbon', 'rome', 'oslo'])

    await row('rome').getByRole('button', { name: 'Compare “rome”' }).click()
    expect(compared).toEqual(['q03'])

    await expect.element(screen.getByRole('heading', { name: 'Failed on B (Demo, config production)' })).toBeVisible()
    await expect.element(screen.getByRole('listitem').filter({ hasText: 'oslo' })).toHaveTextContent('The service answered 500.')

    await row('paris').getByRole('button', { name: 'Judge them: “paris”' }).click()
    await expect.element(screen.getByRole('dialog', { name: 'Judge results' })).toBeVisible()
  })
})
