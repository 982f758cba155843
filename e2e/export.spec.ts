import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { DESKTOP, LAPTOP, openApp, screenshotsBothSizes } from './fixtures/laptop'
import { startSlowProxy } from './fixtures/slow-proxy'
import { readCsv } from '../test/fixtures/csv'
import { SAN_IN_EUROPE } from '../test/fixtures/search-request'

/**
 * Export results in the browser host: the dialog by its accessible names, the
 * file written by the main process and handed to Chromium's download manager
 * (never through the page), and a format the demo refuses shown as a sentence.
 */

const queryBox = (page: Page) => page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' })
const exportDialog = (page: Page) => page.getByRole('dialog', { name: 'Export results' })

async function search(page: Page, text: string): Promise<void> {
  await queryBox(page).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(new RegExp(text))
  await expect(page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(1)).toBeVisible()
}


/** The dialog at both window sizes, light and dark, for looking at (and the project's screens folder). */
async function shots(page: Page, name: string): Promise<void> {
  for (const size of [LAPTOP, DESKTOP]) {
    await page.setViewportSize(size)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await page.screenshot({ path: `/tmp/shots-export/${name}-${size.width}-${colorScheme}.png` })
    }
  }
  await screenshotsBothSizes(page, name)
}

test.beforeEach(async ({ app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
})

test('Export → CSV, up to 250 rows: Chromium downloads one file with a header and 250 data rows', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'san')

  await page.getByRole('button', { name: 'Export', exact: true }).click()
  const dialog = exportDialog(page)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('radiogroup', { name: 'Format' }).getByRole('radio')).toHaveCount(5)
  // The focus starts on the format chosen; the arrow keys change it.
  await expect(dialog.getByRole('radio', { name: 'CSV' })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(dialog.getByRole('radio', { name: 'XLSX' })).toBeChecked()
  await dialog.getByRole('radio', { name: 'CSV' }).check()
  await expect(dialog.getByRole('radio', { name: 'This page' })).toBeChecked()
  // No Load more yet: "Loaded rows" would be this page again.
  await expect(dialog.getByRole('radio', { name: 'Loaded rows' })).toHaveCount(0)
  await dialog.getByRole('radio', { name: 'Up to' }).check()
  await dialog.getByRole('spinbutton', { name: 'Number of rows' }).fill('250')
  await shots(page, 'export-dialog')
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    const { violations } = await new AxeBuilder({ page }).include('dialog').analyze()
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }

  const downloading = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  const download = await downloading
  // Named after the search; headers as a person reads them, the grid's columns in the grid's order.
  expect(download.suggestedFilename()).toBe('san.csv')
  const [header, ...rows] = readCsv(readFileSync((await download.path())!, 'utf8'))
  expect(header).toEqual(['rank', 'probability', 'id', 'class', 'name', 'country', 'population', 'kind', 'latitude', 'longitude'])
  expect(rows).toHaveLength(250)
  expect(rows.map((row) => Number(row[0]))).toEqual(Array.from({ length: 250 }, (_, i) => i + 1))
  await expect(page.getByText('Exported 250 rows: downloading san.csv.')).toBeVisible()
  await expect(dialog).toBeHidden()
})

test('"This page" exports the page shown, and "Loaded rows" the rows Load more added', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'san')
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(page.getByText(/^Rows 11–20 of/)).toBeVisible()

  await page.getByRole('button', { name: 'Export', exact: true }).click()
  const dialog = exportDialog(page)
  await dialog.getByRole('radio', { name: 'JSON' }).check()
  await expect(dialog.getByRole('radio', { name: 'This page' })).toHaveAccessibleDescription('rows 11–20')
  let downloading = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  const pageItems = JSON.parse(readFileSync((await (await downloading).path())!, 'utf8')) as { rank: number }[]
  expect(pageItems.map((item) => item.rank)).toEqual(Array.from({ length: 10 }, (_, i) => i + 11))

  await page.getByRole('button', { name: 'Load more' }).click()
  await expect(page.getByText(/^Rows 11–30 of [\d,]+$/).first()).toBeVisible()
  await page.getByRole('button', { name: 'Export', exact: true }).click()
  // After Load more, the rows loaded are what the dialog offers first.
  await expect(dialog.getByRole('radio', { name: 'Loaded rows' })).toBeChecked()
  await expect(dialog.getByRole('radio', { name: 'Loaded rows' })).toHaveAccessibleDescription('rows 11–30')
  downloading = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  const loaded = JSON.parse(readFileSync((await (await downloading).path())!, 'utf8')) as { rank: number }[]
  expect(loaded.map((item) => item.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 11))
})

test("CSV has the grid's columns (the Columns choice) with readable headers, or every column; the file is named after the saved query", async ({ page, app }) => {
  const request = SAN_IN_EUROPE
  expect((await app.invoke('workspace:save-query', { name: 'San Europe', connectionId: 'demo', request })).ok).toBe(true)
  await app.invoke('workspace:draft', { draft: { connectionId: 'demo', request, savedQuery: 'San Europe' } })
  await openApp(page, app)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(1)).toBeVisible()

  // Two attributes fewer in the grid: the export follows.
  await page.getByRole('button', { name: 'Columns' }).click()
  const chooser = page.getByRole('group', { name: 'Attributes shown as columns' })
  await chooser.getByRole('checkbox', { name: 'population' }).uncheck()
  await chooser.getByRole('checkbox', { name: 'latitude' }).uncheck()
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Export', exact: true }).click()
  const dialog = exportDialog(page)
  const columns = dialog.getByRole('radiogroup', { name: 'Columns' })
  await expect(columns.getByRole('radio', { name: 'As the grid shows them' })).toBeChecked()
  await expect(columns.getByRole('radio', { name: 'As the grid shows them' })).toHaveAccessibleDescription('8 columns: rank, probability, id, class, name, country, …')
  await expect(dialog.getByRole('status', { name: 'File name' })).toHaveText('San Europe.csv')
  await shots(page, 'export-columns')
  let downloading = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  let download = await downloading
  expect(download.suggestedFilename()).toBe('San Europe.csv')
  let [header] = readCsv(readFileSync((await download.path())!, 'utf8'))
  expect(header).toEqual(['rank', 'probability', 'id', 'class', 'name', 'country', 'kind', 'longitude'])

  await page.getByRole('button', { name: 'Export', exact: true }).click()
  await columns.getByRole('radio', { name: 'Every column the service sends' }).check()
  downloading = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  download = await downloading
  ;[header] = readCsv(readFileSync((await download.path())!, 'utf8'))
  expect(header).toEqual(['rank', 'probability', 'id', 'class', 'name', 'country', 'population', 'kind', 'latitude', 'longitude'])

  // Formats that write items whole have no columns to choose.
  await page.getByRole('button', { name: 'Export', exact: true }).click()
  await dialog.getByRole('radio', { name: 'JSON' }).check()
  await expect(dialog.getByRole('radiogroup', { name: 'Columns' })).toHaveCount(0)
  await expect(dialog.getByRole('status', { name: 'File name' })).toHaveText('San Europe.json')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
})

test('a format the demo refuses (XML on the default configuration) shows the server\'s sentence in the dialog', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'berlin')
  await page.getByRole('button', { name: 'Export', exact: true }).click()
  const dialog = exportDialog(page)
  await dialog.getByRole('radio', { name: 'XML' }).check()
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  const alert = dialog.getByRole('alert')
  await expect(alert).toContainText('Export failed.')
  await expect(alert).toContainText('406: format xml is not enabled for this configuration')
  await shots(page, 'export-failed')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
})

test('a long export shows its progress, and Cancel stops the page in flight, with nothing downloaded', async ({ page, app }) => {
  // The demo behind a proxy that lets the first export page through and holds the next ones (and only those) until
  // they are cancelled: the export is under way, and honestly slow, for as long as the test looks at it.
  const list = (await app.invoke('connections:list', {})).data as { id: string; queryUrl: string; authUrl: string }[]
  const demo = list.find((connection) => connection.id === 'demo')!
  const proxy = await startSlowProxy(demo.queryUrl, { holds: /[?&]format=csv/, passFirst: 1 })
  const saved = (await app.invoke('connections:save', { name: 'Slow exports', authUrl: demo.authUrl, queryUrl: proxy.queryUrl, workspace: 'world', api: 'public', clientId: '' })).data as { id: string }
  try {
    await app.invoke('connections:use', { connectionId: saved.id })
    await openApp(page, app)
    await search(page, 'san')
    await page.getByRole('button', { name: 'Export', exact: true }).click()
    const dialog = exportDialog(page)
    await dialog.getByRole('radio', { name: 'CSV' }).check()
    await dialog.getByRole('spinbutton', { name: 'Number of rows' }).fill('100000')
    await expect(dialog.getByRole('radio', { name: 'Up to' })).toBeChecked()
    let downloads = 0
    page.on('download', () => void downloads++)
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()

    const bar = dialog.getByRole('progressbar', { name: 'Rows exported' })
    // Up to 100,000, of the 5,628 there are: the progress counts toward those.
    await expect(bar).toHaveAttribute('aria-valuemax', '5628')
    await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]\d*$/)
    await expect(dialog.getByText(/^Exported [1-9][\d,]* of 5,628 rows/)).toBeVisible()
    // The next page has been asked for and is held: the export is in flight while the screenshots are taken.
    await expect.poll(() => proxy.held()).toBe(1)
    await shots(page, 'export-progress')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog.getByRole('status').filter({ hasText: 'Export cancelled' })).toContainText(/Export cancelled after [\d,]+ rows; no file was written\./)
    await expect(dialog.getByRole('radio', { name: 'CSV' })).toBeChecked()
    // The page being fetched when Cancel was pressed was given up, not waited for.
    await expect.poll(() => proxy.closedEarly()).toBe(1)
    expect(downloads).toBe(0)
  } finally {
    await app.invoke('connections:delete', { id: saved.id })
    await proxy.close()
  }
})
