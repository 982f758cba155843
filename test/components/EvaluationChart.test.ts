import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { Chart } from 'chart.js'
import { render } from 'vitest-browser-vue'
import { userEvent } from 'vitest/browser'
import EvaluationChart from '../../src/renderer/components/relevance/EvaluationChart.vue'
import type { QueryScores } from '../../src/shared/relevance/evaluation'

/**
 * Each query's figure for one metric, highest first, as bars and as the
 * table screen readers get; queries without a figure (failed, unjudged) left
 * out; the arrow keys walk the bars.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const query = (text: string, ndcg: number | null): QueryScores => ({ id: text, text, scores: ndcg === null ? null : { 'ndcg@10': ndcg }, unjudged: 0, returned: 10, error: null })

describe('EvaluationChart', () => {
  it('lists the figures highest first, leaves out queries without one, and walks the bars with the arrow keys', async () => {
    const queries = [query('rome', 0.5), query('lima', null), query('paris', 0.91234), query('oslo', 0)]
    const screen = await render(EvaluationChart, { props: { queries, metric: 'ndcg@10', label: 'nDCG@10' } })
    const canvas = screen.getByRole('img', { name: 'nDCG@10 of each query, highest first' }).element() as HTMLCanvasElement
    const table = document.getElementById(canvas.getAttribute('aria-describedby')!)!
    expect([...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['paris', '0.912'],
      ['rome', '0.500'],
      ['oslo', '0.000'],
    ])
    await expect.poll(() => Chart.getChart(canvas)).toBeDefined()
    const chart = Chart.getChart(canvas)!
    expect(chart.data.labels).toEqual(['paris', 'rome', 'oslo'])
    ;(canvas.parentElement as HTMLElement).focus()
    await userEvent.keyboard('{ArrowRight}')
    await expect.poll(() => chart.tooltip?.getActiveElements().map((element) => element.index)).toEqual([1])
    expect(chart.tooltip?.body?.flatMap((line) => line.lines)).toEqual(['nDCG@10: 0.500'])
  })
})
