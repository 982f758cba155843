import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { openApp, screenshotsBothSizes } from './fixtures/laptop'

/**
 * What the explorer does when the user changes something after a run, in a
 * laptop window: a new page size applies at once, the pager agrees with the
 * rows loaded, paging continues the rows shown whatever was edited since,
 * Test connection saves nothing, and a copy of the demo connection can query
 * another configuration.
 */


const grid = (page: Page) => page.getByRole('grid', { name: 'Results' })
const pager = (page: Page) => page.getByRole('navigation', { name: 'Pages' })
const summary = (page: Page) => page.getByText(/^Rows \d[\d,]*–\d[\d,]* of/).first()
const connectionBox = (page: Page) => page.getByRole('combobox', { name: 'Connection' })

/** The rank shown in the data row at `rowIndex` (aria-rowindex: 2 is the first data row), scrolled into the grid's view. */
async function rankAt(page: Page, rowIndex: number): Promise<string> {
  await grid(page).evaluate((element, index) => {
    const first = element.querySelector('[role=row][aria-rowindex="2"]')
    const height = first?.getBoundingClientRect().height || 32
    element.scrollTop = Math.max(0, (index - 2) * height - element.clientHeight / 2)
  }, rowIndex)
  const row = grid(page).locator(`[role=row][aria-rowindex="${rowIndex}"]`)
  await expect(row).toBeAttached()
  return (await row.getByRole('gridcell').first().textContent())?.trim() ?? ''
}


async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible()
}


test.beforeEach(async ({ app }) => {
  // Each test starts on the demo: a copy chosen by an earlier test would be reopened otherwise.
  await app.invoke('connections:use', { connectionId: 'demo' })
})

test('a new page size shows at once, without Run, from the page that holds the first row shown', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'san')
  await expect(summary(page)).toHaveText('Rows 1–10 of 5,628')
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(summary(page)).toHaveText('Rows 11–20 of 5,628')

  await page.getByRole('combobox', { name: 'Page size' }).selectOption('25')
  // Row 11 is on the first page of 25.
  await expect(summary(page)).toHaveText('Rows 1–25 of 5,628')
  await expect(grid(page)).toHaveAttribute('aria-rowcount', '26')
  expect(await rankAt(page, 2)).toBe('1')
  expect(await rankAt(page, 26)).toBe('25')
  await expect(pager(page).getByRole('spinbutton', { name: 'Page' })).toHaveValue('1')
  await expect(pager(page)).toContainText('of 226')
  await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(/count=25$/)
  await screenshotsBothSizes(page, 'interactions-page-size-25')

  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(summary(page)).toHaveText('Rows 26–50 of 5,628')
  expect(await rankAt(page, 2)).toBe('26')
  await page.getByRole('combobox', { name: 'Page size' }).selectOption('10')
  await expect(summary(page)).toHaveText('Rows 21–30 of 5,628')
})

test('after Load more the pager shows the rows loaded, and Next page continues after them', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'san')
  await expect(pager(page).getByRole('spinbutton', { name: 'Page' })).toHaveValue('1')
  await page.getByRole('button', { name: 'Load more' }).click()
  await expect(summary(page)).toHaveText('Rows 1–20 of 5,628')
  await expect(grid(page)).toHaveAttribute('aria-rowcount', '21')
  // Not "page 1 of 563" beside 20 rows: the range loaded.
  await expect(pager(page)).toContainText('Rows 1–20 of 5,628')
  const pageBox = pager(page).getByRole('spinbutton', { name: 'Page' })
  await expect(pageBox).toHaveCount(0)
  await expect(pager(page).getByText('of 563', { exact: true })).toHaveCount(0)
  await screenshotsBothSizes(page, 'interactions-load-more-pager')

  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(summary(page)).toHaveText('Rows 21–30 of 5,628')
  expect(await rankAt(page, 2)).toBe('21')
  await expect(pageBox).toHaveValue('3')
  await expect(pager(page)).not.toContainText('Rows')

  await page.getByRole('button', { name: 'Previous page' }).click()
  await expect(summary(page)).toHaveText('Rows 11–20 of 5,628')
})

test('after the chain is edited, Load more and the pager continue the run whose rows are shown', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'san')
  await expect(summary(page)).toHaveText('Rows 1–10 of 5,628')
  const firstTen = await grid(page).getByRole('row').nth(1).textContent()

  // An edit that cannot run: the old Load more validated it and sent nothing.
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill('')
  await expect(page.getByText('chain edited since')).toBeVisible()
  await page.getByRole('button', { name: 'Load more' }).click()
  await expect(summary(page)).toHaveText('Rows 1–20 of 5,628')
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect(await grid(page).getByRole('row').nth(1).textContent()).toBe(firstTen)
  expect(await rankAt(page, 21)).toBe('20')

  await page.getByRole('tab', { name: 'Raw response' }).click()
  await expect(page.getByRole('tabpanel', { name: 'Raw response' })).toContainText('/e/search/p/query/san/results?config=default&count=10&offset=10')
  await page.getByRole('tab', { name: 'Grid' }).click()

  // Another search typed but not run: Next page still pages through "san".
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill('paris')
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(summary(page)).toHaveText('Rows 21–30 of 5,628')
  await page.getByRole('tab', { name: 'Raw response' }).click()
  await expect(page.getByRole('tabpanel', { name: 'Raw response' })).toContainText('/e/search/p/query/san/results?config=default&count=10&offset=20')
  await page.getByRole('tab', { name: 'Grid' }).click()
  await screenshotsBothSizes(page, 'interactions-edited-chain-load-more')

  // Run takes the edited chain.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(summary(page)).not.toHaveText(/of 5,628$/)
  await expect(page.getByText('chain edited since')).toHaveCount(0)
})

async function fillForm(dialog: Locator, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await dialog.getByRole('textbox', { name, exact: true }).fill(value)
}

test('Test connection with a wrong secret says why, and saves nothing', async ({ page, app }) => {
  await openApp(page, app)
  const before = ((await app.invoke('connections:list', {})).data as { id: string; name: string }[]).map((c) => c.name)
  const demo = ((await app.invoke('connections:list', {})).data as { id: string; authUrl: string; queryUrl: string }[]).find((c) => c.id === 'demo')!
  await page.getByRole('button', { name: 'New connection' }).click()
  const dialog = page.getByRole('dialog', { name: 'New connection' })
  await fillForm(dialog, {
    Name: 'Never saved',
    'Auth URL': demo.authUrl,
    'Query URL': demo.queryUrl,
    Workspace: 'world',
    API: 'places',
    'Client ID': 'demo',
    'Client secret': 'certainly-not-the-secret',
  })
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  const results = dialog.getByRole('region', { name: 'Test results' })
  await expect(results).toContainText('Connection test failed')
  await expect(results).toContainText('401')
  // Still the unsaved form, secret and all: nothing was stored, nothing chosen.
  await expect(dialog).toHaveAccessibleName('New connection')
  await expect(dialog.getByRole('textbox', { name: 'Client secret' })).toHaveValue('certainly-not-the-secret')
  await screenshotsBothSizes(page, 'interactions-test-wrong-secret')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toHaveCount(0)

  await expect(connectionBox(page)).toHaveValue('demo')
  await expect(connectionBox(page).getByRole('option')).toHaveText(before)
  const after = ((await app.invoke('connections:list', {})).data as { name: string }[]).map((c) => c.name)
  expect(after).toEqual(before)
})

test('Duplicate connection of the demo gives an editable copy that queries config production', async ({ page, app }) => {
  await openApp(page, app)
  await page.getByRole('button', { name: 'Connection settings' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toHaveAccessibleName('Demo connection')
  await dialog.getByRole('button', { name: 'Duplicate connection' }).click()
  await expect(dialog).toHaveAccessibleName('Edit connection')
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue(/^Demo \(copy( \d+)?\)$/)
  await expect(dialog.getByRole('status')).toContainText('with the client secret of “Demo”')
  // The secret was copied by the main process: the form says one is stored and shows nothing of it.
  await expect(dialog.getByRole('textbox', { name: 'Client secret' })).toHaveValue('')
  await expect(dialog.getByRole('textbox', { name: 'Client secret' })).toHaveAttribute('placeholder', /^Stored/)
  await fillForm(dialog, { Name: 'Demo, production', Config: 'production' })
  await screenshotsBothSizes(page, 'interactions-duplicate-demo')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: 'Saved “Demo, production”' })).toBeVisible()
  await expect(connectionBox(page).locator('option:checked')).toHaveText('Demo, production')

  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  await search(page, 'san')
  await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(/[?&]config=production(&|$)/)
  await page.getByRole('tab', { name: 'Raw response' }).click()
  const panel = page.getByRole('tabpanel', { name: 'Raw response' })
  await expect(panel).toContainText('config=production')
  await expect(panel.getByRole('definition').first()).toHaveText('200')
  await screenshotsBothSizes(page, 'interactions-duplicate-production-run')
})
