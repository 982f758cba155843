import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import CompareStats from '../../src/renderer/components/compare/CompareStats.vue'
import { answeredSide, comparison, failedSide } from '../../src/shared/compare/comparison'
import type { Comparison } from '../../src/shared/ipc/contract'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The comparison's statistics panel: before a comparison it says what will
 * appear; after one, both sides' distributions in one chart named for A and
 * B with each side's target; with no statistics from either side, it says so.
 */

const fake = bridgeForFile()

const side = (label: string, stats: { cutoff: string; numResults: number }[]) => answeredSide(label, { status: 200, body: [{ items: [] }, { total: 10, stats }] }, 5, 10)

describe('CompareStats', () => {
  it("shows both sides' distributions named for their targets, and says when there are none", async () => {
    const pinia = demoWindow(fake)
    const screen = await render(CompareStats, { props: { result: null as Comparison | null, stale: false }, global: { plugins: [pinia] } })
    const region = screen.getByRole('region', { name: 'Distributions of A and B' })
    if (screen.getByRole('button', { name: 'Statistics' }).element().getAttribute('aria-expanded') === 'false') await screen.getByRole('button', { name: 'Statistics' }).click()
    await expect.element(region).toHaveTextContent('How the matches of A and B spread over the probability cutoffs appears after Run comparison.')

    const result = comparison(10, side('Demo · config default', [{ cutoff: '0.5', numResults: 8 }]), side('Demo · config fresh', [{ cutoff: '0.5', numResults: 6 }]))
    await screen.rerender({ result, stale: false })
    const chart = region.getByRole('img', { name: 'Probability distributions of A and B' })
    await expect.element(chart).toBeInTheDocument()
    const table = document.getElementById(chart.element().getAttribute('aria-describedby')!)!
    expect([...table.querySelectorAll('thead th')].map((cell) => cell.textContent)).toEqual(['Cutoff', 'A · Demo · config default', 'B · Demo · config fresh'])

    await screen.rerender({ result: comparison(10, failedSide('A', 500, 'boom', 1), failedSide('B', 500, 'boom', 1)), stale: false })
    await expect.element(region).toHaveTextContent('No distribution: neither side answered with statistics.')
  })
})
