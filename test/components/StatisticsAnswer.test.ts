import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { defineComponent, h } from 'vue'
import { render } from 'vitest-browser-vue'
import AnswerView from '../../src/renderer/components/results/AnswerView.vue'
import StatisticsPanel from '../../src/renderer/components/statistics-answer/StatisticsPanel.vue'
import type { SingleAnswer } from '../../src/shared/query/single-answer'
import { useChainStore } from '../../src/renderer/stores/chain'
import { useQueryStore } from '../../src/renderer/stores/query'

/**
 * The statistics response type is shown by the statistics view the side panel
 * uses: one view, one order (lowest cutoff first, as the chart's axis runs),
 * in a region named for what it is, not "Count".
 */

// Highest cutoff first, as the service writes them.
const BODY = { total: 5628, stats: [{ cutoff: '0.9', numResults: 12 }, { cutoff: '0.5', numResults: 840 }, { cutoff: '0.1', numResults: 5628 }] }
const ANSWER: SingleAnswer = { type: 'statistics', body: BODY }

const rowsOf = (table: Element) => [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent?.trim()))

describe('a statistics answer', () => {
  it('shows in a region named Statistics response, with the side panel\'s chart and figures in the same order', async () => {
    const pinia = createPinia()
    useQueryStore(pinia).statistics = BODY
    useChainStore(pinia).cutoff = 0.5
    const Both = defineComponent(() => () => h('div', { style: 'width: 900px' }, [h(AnswerView, { answer: ANSWER }), h('aside', { style: 'width: 300px' }, [h(StatisticsPanel)])]))
    const screen = await render(Both, { global: { plugins: [pinia] } })

    const answer = screen.getByRole('region', { name: 'Statistics response' })
    await expect.element(answer).toBeVisible()
    expect(screen.getByRole('region', { name: 'Count', exact: true }).elements()).toHaveLength(0)
    await expect.element(answer.getByRole('img', { name: 'Probability distribution' })).toBeVisible()
    await expect.element(answer.getByText('5,628', { exact: true }).first()).toBeVisible()
    await expect.element(answer.getByText('matches at cutoff ≥ 0.5')).toBeVisible()

    // The answer's table is on screen; the side panel's is for screen readers. Both list the cutoffs lowest first.
    const shown = answer.getByRole('table', { name: 'Matches at or above each probability cutoff' })
    await expect.element(shown).toBeVisible()
    const expected = [['≥ 0.1', '5,628'], ['≥ 0.5', '840'], ['≥ 0.9', '12']]
    expect(rowsOf(shown.element())).toEqual(expected)
    const side = screen.getByRole('region', { name: 'Statistics', exact: true }).getByRole('table', { name: 'Matches at or above each probability cutoff' })
    expect(rowsOf(side.element())).toEqual(expected)

    // Each chart is described by its own table.
    const charts = screen.getByRole('img', { name: 'Probability distribution' }).elements()
    expect(charts).toHaveLength(2)
    const described = charts.map((chart) => document.getElementById(chart.getAttribute('aria-describedby') ?? ''))
    expect(described[0]).toBe(shown.element())
    expect(described[1]).toBe(side.element())
  })
})
