import { describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { setSummary } from '../../src/shared/relevance/set-summary'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The line above the grid while a set's query is rated: which query of which
 * set, where it ran, how many of the top rows that count have a grade, the
 * keys, and Stop rating, after which the line goes.
 */

const fake = bridgeForFile()

const SET: QuerySet = {
  name: 'World cities', query: 'City search', queries: [{ id: 'q01', text: 'paris' }],
  judgments: [{ query: 'q01', item: 'paris-1', rater: 'r1', grade: 3 }, { query: 'q01', item: 'paris-3', rater: 'r1', grade: 0 }, { query: 'q01', item: 'paris-99', rater: 'r1', grade: 2 }],
}
const VIEW = { name: 'world', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], sets: [setSummary(SET)], bindings: [] } as WorkspaceView

describe('RatingBanner', () => {
  it('names the query, the set and where it ran, counts the top rows rated, and Stop rating ends it', async () => {
    const pinia = demoWindow(fake, { 'sets:get': SET, 'eval:list': [] })
    const [{ default: RatingBanner }, { useWorkspaceStore }, { useQuerySetsStore }, { useQueryStore }] = await Promise.all([
      import('../../src/renderer/components/results/RatingBanner.vue'),
      import('../../src/renderer/stores/workspace'),
      import('../../src/renderer/stores/query-sets'),
      import('../../src/renderer/stores/query'),
    ])
    useWorkspaceStore(pinia).show(VIEW)
    const sets = useQuerySetsStore(pinia)
    await expect.poll(() => sets.set?.name).toBe(SET.name)
    // Twelve rows: the top 10 count, of which paris-1 and paris-3 are rated (paris-99 is not among them).
    useQueryStore(pinia).items = Array.from({ length: 12 }, (_, i) => ({ rank: i + 1, probability: 1, tuple: [{ id: `paris-${i + 1}`, class: ['city'], attributes: {} }] }))
    sets.ratingQuery = 'q01'
    sets.ratingTarget = 'Demo, config default, as evaluated (depth 100)'
    const screen = await render(RatingBanner, { global: { plugins: [pinia] } })
    const banner = screen.getByRole('region', { name: 'Rating' })
    await expect.element(banner).toHaveTextContent(
      'Rating results for “paris” (q01) in World cities as r1 on Demo, config default, as evaluated (depth 100) — 2 of the top 10 rated · 0–3 rate the active row, Backspace clears',
    )
    await banner.getByRole('button', { name: 'Stop rating' }).click()
    await expect.element(banner).not.toBeInTheDocument()
    expect(sets.ratingQuery).toBeNull()
  })
})
