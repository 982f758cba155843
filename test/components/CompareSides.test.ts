import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import CompareSides from '../../src/renderer/components/compare/CompareSides.vue'
import { answeredSide, comparison, failedSide } from '../../src/shared/compare/comparison'

/**
 * Each side of a comparison in a line: its target, then its status, total
 * and duration; a failed side its error in full, its status named once
 * (not again when the service's words already give it).
 */

const city = (id: string) => ({ rank: 1, probability: 1, tuple: [{ id, class: ['city'], attributes: { name: `City ${id}` } }] })

describe('CompareSides', () => {
  it("gives an answered side's status, total and duration, and a failed side's error with its status once", async () => {
    const a = answeredSide('Demo · config default', { status: 200, body: [{ items: [city('1')] }, { total: 5628, stats: [] }] }, 12_345, 10)
    const result = comparison(10, a, failedSide('Demo · config production', 500, 'Internal error in the ranking.', 40))
    const screen = await render(CompareSides, { props: { result } })
    const sideA = screen.getByRole('region', { name: 'Side A' })
    await expect.element(sideA).toHaveTextContent('Demo · config default')
    // "status 200", "total 5,628", "duration 12.3 s", side by side.
    await expect.element(sideA).toHaveTextContent(/status 200\s*total 5,628\s*duration 12\.3 s$/)
    await expect.element(screen.getByRole('region', { name: 'Side B' })).toHaveTextContent('Failed (500): Internal error in the ranking.')

    const worded = comparison(10, a, failedSide('B', 404, 'The service answered 404: no such API.', 40))
    await screen.rerender({ result: worded })
    await expect.element(screen.getByRole('region', { name: 'Side B' })).toHaveTextContent('Failed: The service answered 404: no such API.')
    const unanswered = comparison(10, a, failedSide('B', null, 'Could not connect to 127.0.0.1:1.', 5))
    await screen.rerender({ result: unanswered })
    await expect.element(screen.getByRole('region', { name: 'Side B' })).toHaveTextContent('Failed: Could not connect to 127.0.0.1:1.')
  })
})
