import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import StatisticsPanel from '../../src/renderer/components/statistics-answer/StatisticsPanel.vue'
import { useChainStore } from '../../src/renderer/stores/chain'
import { useQueryStore } from '../../src/renderer/stores/query'

/**
 * The side panel's statistics: before a run it says what will appear; after
 * one, the last statistics at the chain's cutoff, with their chart.
 */

afterEach(() => {
  document.body.replaceChildren()
})

describe('StatisticsPanel', () => {
  it("says what appears after a run, then shows the last statistics at the chain's cutoff", async () => {
    const pinia = createPinia()
    const screen = await render(StatisticsPanel, { global: { plugins: [pinia] } })
    const region = screen.getByRole('region', { name: 'Statistics' })
    await expect.element(region).toHaveTextContent('The number of matches and how their probabilities spread appear after a run.')

    const query = useQueryStore(pinia)
    useChainStore(pinia).cutoff = 0.9
    query.statistics = { total: 840, stats: [{ cutoff: '0.9', numResults: 12 }, { cutoff: '0.5', numResults: 840 }] }
    await expect.element(region.getByText('matches at cutoff ≥ 0.9')).toBeVisible()
    await expect.element(region.getByText('840', { exact: true }).first()).toBeVisible()
    await expect.element(region.getByRole('img', { name: 'Probability distribution' })).toBeInTheDocument()
  })
})
