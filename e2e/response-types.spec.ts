import type { Locator, Page } from '@playwright/test'
import { expect, test, type LaunchedApp } from './fixtures/app'
import { openApp, screenshotsBothSizes } from './fixtures/laptop'

/**
 * Issue 13 in the window: the "Response type" picker changes what is asked
 * and how the answer is shown (a count, one result object, a facet's
 * options), a connection that asks its tokens with OAuth 2.0 client
 * credentials runs queries, and a pasted URL with a bare facet value ticks
 * that option.
 */


const grid = (page: Page) => page.getByRole('grid', { name: 'Results' })
const connectionBox = (page: Page) => page.getByRole('combobox', { name: 'Connection' })
const urlBox = (page: Page) => page.getByRole('textbox', { name: 'Request URL' })
const responseType = (page: Page) => page.getByRole('combobox', { name: 'Response type' })
const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true })


async function typeQuery(page: Page, text: string): Promise<void> {
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill(text)
}

async function demoQueryUrl(app: LaunchedApp): Promise<string> {
  const list = (await app.invoke('connections:list', {})).data as { id: string; queryUrl: string }[]
  return list.find((connection) => connection.id === 'demo')!.queryUrl.replace(/\/+$/, '')
}


test.beforeEach(async ({ app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
})

test('Response type count asks /count and shows the total, without rows or paging', async ({ page, app }) => {
  await openApp(page, app)
  await typeQuery(page, 'san')
  await responseType(page).selectOption('count')
  await expect(urlBox(page)).toHaveValue(/\/e\/search\/p\/query\/san\/count\?config=default$/)
  // Page size, level and format do not apply to count: they are not offered, and not sent.
  await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveCount(0)
  await expect(page.getByRole('combobox', { name: 'Format' })).toHaveCount(0)
  await runButton(page).click()
  const count = page.getByRole('region', { name: 'Count' })
  await expect(count).toContainText('5,628 results')
  await expect(grid(page)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Next page' })).toHaveCount(0)
  await screenshotsBothSizes(page, 'response-types-count')

  // Back to results: rows again, with the page size sent.
  await responseType(page).selectOption('results')
  await expect(urlBox(page)).toHaveValue(/\/results\?config=default&count=10$/)
  await runButton(page).click()
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible()
  await expect(page.getByText(/^Rows 1–10 of 5,628$/)).toBeVisible()
})

test('Response type statistics shows the side panel\'s statistics view, in its order, in a region named for it', async ({ page, app }) => {
  await openApp(page, app)
  await typeQuery(page, 'san')
  await responseType(page).selectOption('statistics')
  await expect(urlBox(page)).toHaveValue(/\/e\/search\/p\/query\/san\/statistics\?config=default/)
  await runButton(page).click()
  const answer = page.getByRole('region', { name: 'Statistics response' })
  await expect(answer.locator('.statistics__number')).toHaveText('5,628')
  await expect(page.getByRole('region', { name: 'Count', exact: true })).toHaveCount(0)
  await expect(answer.getByRole('img', { name: 'Probability distribution' })).toBeVisible()
  await expect(grid(page)).toHaveCount(0)

  // One order: the answer's table lists the cutoffs lowest first, as the side panel's chart and table do.
  const cutoffsOf = async (table: Locator) =>
    (await table.locator('tbody tr td:first-child').allTextContents()).map((text) => Number(text.replace('≥', '').trim()))
  const shown = answer.getByRole('table', { name: 'Matches at or above each probability cutoff' })
  await expect(shown).toBeVisible()
  const cutoffs = await cutoffsOf(shown)
  expect(cutoffs.length).toBeGreaterThan(1)
  expect(cutoffs).toEqual([...cutoffs].sort((a, b) => a - b))
  const toggle = page.getByRole('button', { name: 'Statistics and facets' })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  const side = page.getByRole('region', { name: 'Statistics', exact: true }).getByRole('table', { name: 'Matches at or above each probability cutoff' })
  expect(await cutoffsOf(side)).toEqual(cutoffs)
  await screenshotsBothSizes(page, 'response-types-statistics')
})

test('results,count shows the rows and their total from one request', async ({ page, app }) => {
  await openApp(page, app)
  await typeQuery(page, 'san')
  await responseType(page).selectOption('results,count')
  await expect(urlBox(page)).toHaveValue(/\/results,count\?config=default&count=10$/)
  await runButton(page).click()
  await expect(page.getByText(/^Rows 1–10 of 5,628$/)).toBeVisible()
  await expect(grid(page).getByRole('row')).toHaveCount(11)
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(page.getByText(/^Rows 11–20 of 5,628$/)).toBeVisible()
})

test('resultitem with Rank 3 shows that one object with its attributes', async ({ page, app }) => {
  await openApp(page, app)
  await typeQuery(page, 'san')
  // The third row of the results, to compare with.
  await runButton(page).click()
  const third = grid(page).locator('[role=row][aria-rowindex="4"]')
  await expect(third).toBeVisible()
  const thirdText = (await third.textContent()) ?? ''

  await responseType(page).selectOption('resultitem')
  await page.getByRole('spinbutton', { name: 'Rank' }).fill('3')
  await expect(page.getByRole('spinbutton', { name: 'Column' })).toHaveValue('1')
  await expect(urlBox(page)).toHaveValue(/\/resultitem\?config=default&rank=3&column=1$/)
  await runButton(page).click()
  const object = page.getByRole('region', { name: 'Result object' })
  await expect(object).toContainText('Result 3, column 1')
  const id = (await object.getByRole('heading').textContent())?.trim() ?? ''
  expect(id).not.toBe('')
  expect(thirdText).toContain(id.replace(/^.*[/#:]/, ''))
  await expect(object.getByRole('term').first()).toBeVisible()
  expect(await object.getByRole('term').count()).toBeGreaterThan(1)
  await expect(grid(page)).toHaveCount(0)
  await screenshotsBothSizes(page, 'response-types-resultitem')
})

test('options/<facet> lists the facet options with the selection, and a pasted bare facet value ticks that option', async ({ page, app }) => {
  await openApp(page, app)
  await typeQuery(page, 'san')
  await responseType(page).selectOption('options')
  // The facets the API describes are offered; the first is chosen so the request can run at once.
  await expect(page.getByRole('combobox', { name: 'Facet' })).toHaveValue('continent')
  await page.getByRole('combobox', { name: 'Facet' }).selectOption('country')
  await expect(urlBox(page)).toHaveValue(/\/e\/search\/p\/query\/san\/options\/country\?config=default$/)
  await page.getByRole('checkbox', { name: 'Multiselect' }).check()
  await expect(urlBox(page)).toHaveValue(/\/options\/country\?config=default&multiselect=true$/)
  await page.getByRole('checkbox', { name: 'Multiselect' }).uncheck()
  await runButton(page).click()
  const options = page.getByRole('table', { name: 'Options of country' })
  await expect(options.getByRole('row').nth(1)).toBeVisible()
  const firstId = ((await options.getByRole('row').nth(1).getByRole('cell').nth(2).textContent()) ?? '').trim()
  const firstTitle = ((await options.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()) ?? '').trim()
  expect(firstId).not.toBe('')
  await expect(page.getByRole('region', { name: 'Options of country' })).toContainText('Nothing selected')

  // The official client's single-select facets send a bare option id: pasted, it ticks that option and the answer shows it selected.
  const url = `${await demoQueryUrl(app)}/world/api/places/e/search/p/query/san/e/country:FILTER/p/value/${encodeURIComponent(firstId)}/results?count=10`
  await urlBox(page).fill(url)
  await urlBox(page).press('Enter')
  await expect(responseType(page)).toHaveValue('results')
  const toggle = page.getByRole('button', { name: 'Statistics and facets' })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  const facet = page.getByRole('group', { name: 'country' })
  await expect(facet.getByRole('checkbox', { name: firstTitle, exact: true })).toBeChecked()
  await expect(facet.getByRole('checkbox', { checked: true })).toHaveCount(1)
  // The filter step shows the value as written, with no complaint about tuple notation.
  const value = page.getByRole('group', { name: 'Step 2' }).getByRole('textbox', { name: 'value' })
  await expect(value).toHaveValue(firstId)
  await expect(value).not.toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Not tuple notation yet')).toHaveCount(0)
  await runButton(page).click()
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible()

  // The same chain asked as options/country, its filter included: the answer names the selection, and
  // with Multiselect the other options are listed beside it.
  await responseType(page).selectOption('options')
  await page.getByRole('combobox', { name: 'Facet' }).selectOption('country')
  await expect(urlBox(page)).toHaveValue(new RegExp(`/e/country:FILTER/p/value/${firstId}/options/country\\?config=default$`))
  await runButton(page).click()
  const answer = page.getByRole('region', { name: 'Options of country' })
  await expect(answer).toContainText(`Selected: ${firstTitle}`)
  await expect(options.getByRole('row')).toHaveCount(2)
  await page.getByRole('checkbox', { name: 'Multiselect' }).check()
  await runButton(page).click()
  await expect(answer).toContainText(`Selected: ${firstTitle}`)
  await expect(answer).toContainText(/multiselect/)
  expect(await options.getByRole('row').count()).toBeGreaterThan(10)
  await expect(options.getByRole('row').nth(1)).toContainText('✓')
  await expect(options.getByRole('row').nth(2)).not.toContainText('✓')
  await screenshotsBothSizes(page, 'response-types-options')
})

test('a copy of the demo connection set to OAuth 2.0 client credentials runs a search', async ({ page, app }) => {
  await openApp(page, app)
  await page.getByRole('button', { name: 'Connection settings' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toHaveAccessibleName('Demo connection')
  await expect(dialog.getByRole('combobox', { name: 'Token request' })).toHaveValue('json')
  await dialog.getByRole('button', { name: 'Duplicate connection' }).click()
  await expect(dialog).toHaveAccessibleName('Edit connection')
  await expect(dialog.getByText('Tokens are requested with POST <auth URL>/api/auth (JSON).')).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Demo, OAuth')
  await dialog.getByRole('combobox', { name: 'Token request' }).selectOption({ label: 'OAuth 2.0 client credentials (POST /oauth/token)' })
  await expect(dialog.getByText(/POST <auth URL>\/oauth\/token/)).toBeVisible()
  await screenshotsBothSizes(page, 'response-types-token-request')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(connectionBox(page).locator('option:checked')).toHaveText('Demo, OAuth')
  const list = (await app.invoke('connections:list', {})).data as { id: string; name: string; tokenRequest?: string }[]
  const saved = list.find((connection) => connection.name === 'Demo, OAuth')!
  expect(saved.tokenRequest).toBe('oauth')
  try {
    await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
    await typeQuery(page, 'san')
    await page.getByRole('combobox', { name: 'Page size' }).selectOption('100')
    await runButton(page).click()
    await expect(page.getByText(/^Rows 1–100 of 5,628$/)).toBeVisible()
    await page.getByRole('button', { name: 'Load more' }).click()
    await expect(page.getByText(/Rows 1–200 of 5,628/).first()).toBeVisible()
    await expect(grid(page)).toHaveAttribute('aria-rowcount', '201')
  } finally {
    await app.invoke('connections:delete', { id: saved.id })
  }
})
