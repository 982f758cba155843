import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { createPinia } from 'pinia'
import { render } from 'vitest-browser-vue'
import AnswerView from '../../src/renderer/components/results/AnswerView.vue'
import type { SingleAnswer } from '../../src/shared/query/single-answer'

/**
 * The answers that are not rows, each in a region named for what it is: a
 * count in words ("1 result", "5,628 results"), one result object with its
 * id, classes and attributes, and a facet's options with the selection
 * marked (a selected option the list leaves out shown first).
 */

afterEach(() => {
  document.body.replaceChildren()
})

const mount = (answer: SingleAnswer) => render(AnswerView, { props: { answer }, global: { plugins: [createPinia()] } })

describe('AnswerView', () => {
  it('says a count in words, singular for one', async () => {
    const screen = await mount({ type: 'count', body: { total: 5628 } })
    // The total's paragraph, then the note under it.
    await expect.element(screen.getByRole('region', { name: 'Count' })).toHaveTextContent(/^5,628 results\s*The number/)
    await screen.rerender({ answer: { type: 'count', body: { total: 1 } } })
    await expect.element(screen.getByRole('region', { name: 'Count' })).toHaveTextContent(/^1 result\s*The number/)
  })

  it('shows one result object: where it is, its id, classes and attributes', async () => {
    const screen = await mount({ type: 'resultitem', rank: 2, column: 1, body: { id: '71137', class: ['city', 'capital'], name: 'Sanaa', population: 1937451 } })
    const region = screen.getByRole('region', { name: 'Result object' })
    await expect.element(region.getByText('Result 2, column 1')).toBeVisible()
    await expect.element(region.getByRole('heading', { name: '71137' })).toBeVisible()
    await expect.element(region).toHaveTextContent(/city\s*capital/)
    expect([...region.element().querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling?.textContent])).toEqual([['name', 'Sanaa'], ['population', '1937451']])
  })

  it("lists a facet's options with the selection marked, a selected one the list leaves out first", async () => {
    const screen = await mount({
      type: 'options', facet: 'country', multiselect: true,
      body: {
        id: 'country', title: 'Country',
        selected: [{ id: 'YE', value: 'YE', score: 0, title: 'Yemen' }, { id: 'ES', value: 'ES', score: 12, title: 'Spain' }],
        options: [{ id: 'ES', value: 'ES', score: 12, title: 'Spain' }, { id: 'FR', value: 'FR', score: 9 }],
      },
    })
    const region = screen.getByRole('region', { name: 'Options of country' })
    await expect.element(region.getByRole('heading', { name: 'Country' })).toBeVisible()
    await expect.element(region.getByText('Selected: Yemen, Spain · multiselect')).toBeVisible()
    const rows = region.getByRole('table', { name: 'Options of country' }).getByRole('row').elements().slice(1)
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent?.trim()))).toEqual([
      ['✓', 'Yemen', 'YE', '0'],
      ['✓', 'Spain', 'ES', '12'],
      ['not selected', 'FR', 'FR', '9'],
    ])
  })
})
