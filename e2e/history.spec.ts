import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { seriousViolationsBothThemes } from './fixtures/axe'
import { draftKept, searchDraft } from './fixtures/draft'
import { openApp, screenshotsBothSizes } from './fixtures/laptop'
import { showView } from './fixtures/workbench'

/**
 * The run history in the window: each run is listed (time, connection,
 * status, total, duration, URL), can be searched, and "Open in editor" puts an
 * earlier query back into the chain without running it.
 */

const grid = (page: Page) => page.getByRole('grid', { name: 'Results' })
const historyRegion = (page: Page) => page.getByRole('region', { name: 'History' })
const queryBox = (page: Page) => page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' })

async function search(page: Page, text: string): Promise<void> {
  await queryBox(page).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(new RegExp(text))
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible()
}

test.beforeEach(async ({ app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
  await app.invoke('history:clear', {})
})

test('two searches are listed, newest first, and "Open in editor" restores the older one without running it', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'paris')
  await search(page, 'berlin')

  await showView(page, 'History')
  const runs = historyRegion(page).getByRole('list', { name: 'Recorded runs' }).getByRole('listitem')
  // Only the user's runs: the statistics and facet counts asked alongside them are not listed.
  await expect(runs).toHaveCount(2)
  const searches = runs
  await expect(searches.nth(0)).toContainText('berlin')
  await expect(searches.nth(1)).toContainText('paris')
  await expect(searches.nth(1)).toContainText('Demo')
  await expect(searches.nth(1)).toContainText('200')
  await expect(searches.nth(1)).toContainText(/\d+ ms/)
  await expect(searches.nth(1)).toContainText(/\d{2}:\d{2}:\d{2}/)
  await screenshotsBothSizes(page, 'history-open')
  // The History view with its runs listed: nothing serious for axe, light and dark.
  expect(await seriousViolationsBothThemes(page, 'history view')).toEqual([])

  const pages = async () =>
    ((await app.invoke('history:list', {})).data as { url: string }[]).filter((entry) => /\/results\?config=default&count=10$/.test(entry.url)).length
  await searches.nth(1).getByRole('button', { name: 'Open in editor' }).click()
  await expect(queryBox(page)).toHaveValue('paris')
  await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(/query\/paris\/results\?config=default&count=10$/)
  await expect(page.getByRole('group', { name: 'Step 2' })).toHaveCount(0)
  // Nothing was run: no new results page was asked for, and the grid still shows berlin's answer. Once the restored
  // chain's draft has reached the main process, the page has done all the click led it to do, and no run is on its
  // way (a run's history entry is written before its answer comes back).
  await draftKept(app, searchDraft('paris'))
  await expect(page.getByRole('progressbar', { name: 'Running query' })).toHaveCount(0)
  expect(await pages()).toBe(2)
  await showView(page, 'Results')
  await expect(grid(page).getByRole('row').nth(1)).toContainText('Berlin')
})

test('the search box narrows the list, and Clear history empties it', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'madrid')
  await search(page, 'vienna')
  await showView(page, 'History')
  const runs = historyRegion(page).getByRole('list', { name: 'Recorded runs' }).getByRole('listitem')
  await expect(runs.filter({ hasText: 'vienna' }).first()).toBeVisible()

  await historyRegion(page).getByRole('searchbox', { name: 'Search history' }).fill('MADRID')
  await expect(runs.filter({ hasText: 'vienna' })).toHaveCount(0)
  await expect(runs.filter({ hasText: 'madrid' }).first()).toBeVisible()

  await historyRegion(page).getByRole('button', { name: 'Clear history' }).click()
  await expect(runs).toHaveCount(0)
  await expect(historyRegion(page)).toContainText('No run in the history matches this search.')
  expect((await app.invoke('history:list', {})).data).toEqual([])
})

test('a run and its Load more are one entry, which says how many pages and rows it covers', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'san')
  // Up to 1,000 rows: 10 more pages of up to 100, three on the way at once.
  await page.getByRole('combobox', { name: 'Load how many' }).selectOption('1000')
  await page.getByRole('button', { name: 'Load more' }).click()
  await expect(page.getByText('Rows 1–1,000 of 5,628').first()).toBeVisible()
  await expect(page.getByRole('progressbar', { name: 'Loading rows' })).toHaveCount(0)

  await showView(page, 'History')
  const runs = historyRegion(page).getByRole('list', { name: 'Recorded runs' }).getByRole('listitem')
  await expect(runs).toHaveCount(1)
  await expect(runs.first()).toContainText('san')
  await expect(runs.first()).toContainText('11 pages, 1,000 rows')
  // The entry is the run's: Open in editor restores its first page, not the last one Load more asked for.
  const recorded = (await app.invoke('history:list', {})).data as { url: string; pages: number; itemCount: number }[]
  expect(recorded).toHaveLength(1)
  expect(recorded[0]).toMatchObject({ pages: 11, itemCount: 1_000 })
  expect(recorded[0]!.url).toMatch(/\/query\/san\/results\?config=default&count=10$/)

  // A new run is an entry of its own, and a Load more of it extends that one.
  await showView(page, 'Results')
  await search(page, 'paris')
  await page.getByRole('combobox', { name: 'Load how many' }).selectOption('page')
  await page.getByRole('button', { name: 'Load more' }).click()
  await expect(page.getByText(/^Rows 1–20 of/).first()).toBeVisible()
  await showView(page, 'History')
  await expect(runs).toHaveCount(2)
  await expect(runs.nth(0)).toContainText('paris')
  await expect(runs.nth(0)).toContainText('2 pages, 20 rows')
  await expect(runs.nth(1)).toContainText('11 pages, 1,000 rows')
})

test("a run's reply brings its entry: History lists it and a Load more's pages without asking main for the list again", async ({ page, app }) => {
  await openApp(page, app)
  await showView(page, 'History')
  await expect(historyRegion(page)).toContainText('No runs yet')
  // From here on, neither the History view nor the chain editor reads the list: the runs' replies bring their entries.
  const reads: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === `/ipc/${encodeURIComponent('history:list')}`) reads.push(request.url())
  })

  await search(page, 'lisbon')
  await showView(page, 'History')
  const runs = historyRegion(page).getByRole('list', { name: 'Recorded runs' }).getByRole('listitem')
  await expect(runs).toHaveCount(1)
  await expect(runs.first()).toContainText('lisbon')
  await expect(runs.first()).toContainText('200')

  await showView(page, 'Results')
  await search(page, 'san')
  await page.getByRole('combobox', { name: 'Load how many' }).selectOption('page')
  await page.getByRole('button', { name: 'Load more' }).click()
  await expect(page.getByText(/^Rows 1–20 of/).first()).toBeVisible()
  await showView(page, 'History')
  await expect(runs).toHaveCount(2)
  await expect(runs.nth(0)).toContainText('san')
  await expect(runs.nth(0)).toContainText('2 pages, 20 rows')
  // What main wrote is what the window lists (read here by the test through the host, not by the page).
  const recorded = (await app.invoke('history:list', {})).data as { pages: number; itemCount: number }[]
  expect(recorded.map((entry) => [entry.pages, entry.itemCount])).toEqual([[2, 20], [1, expect.any(Number)]])
  expect(reads).toEqual([])
})
