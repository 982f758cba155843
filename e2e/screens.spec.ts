import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures/app'

/**
 * Screenshots of every screen of the explorer, light and dark, into
 * e2e/output/screens/: the editor with facets, the grid, the row detail, the
 * statistics chart, the raw view and the error state. They are for people to
 * look at; the assertions only make sure each screen is really there first.
 */

const OUT = 'e2e/output/screens'

async function shoot(page: Page, name: string, target?: Locator): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    // The chart redraws in the theme's colours on the media change; give it a frame.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))')
    const path = `${OUT}/${name}-${scheme}.png`
    if (target) await target.screenshot({ path })
    else await page.screenshot({ path })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

async function runSearch(page: Page, text: string): Promise<void> {
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('table', { name: 'Results' }).getByRole('row').nth(1)).toBeVisible()
}

test('screens: start, editor with facets, grid, statistics, row detail, raw view', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  await shoot(page, 'start')

  await runSearch(page, 'san')
  const country = page.getByRole('group', { name: 'country' })
  await country.getByRole('checkbox', { name: 'Italy' }).check()
  await country.getByRole('checkbox', { name: 'Spain' }).check()
  await page.getByRole('button', { name: 'Add step' }).click()
  const step3 = page.getByRole('group', { name: 'Step 3' })
  await step3.getByRole('combobox', { name: 'Endpoint' }).fill('population')
  await step3.getByRole('combobox', { name: 'Endpoint' }).dispatchEvent('change')
  await step3.getByRole('textbox', { name: 'min' }).fill('5000')
  await page.getByRole('button', { name: 'Add context step' }).click()
  await page.getByRole('group', { name: 'Step 4' }).getByRole('textbox', { name: 'Name of context parameter 1' }).fill('lang')
  await page.getByRole('group', { name: 'Step 4' }).getByRole('textbox', { name: 'lang' }).fill('en')
  await page.getByRole('group', { name: 'Step 4' }).getByRole('switch', { name: 'Step on' }).uncheck()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByText(/^Rows 1–10 of \d+$/)).not.toHaveText('Rows 1–10 of 5,628')
  await expect(country.getByRole('checkbox', { name: 'Italy' })).toBeChecked()
  await shoot(page, 'editor-with-facets')

  await page.getByRole('combobox', { name: 'Page size' }).selectOption('100')
  await page.getByRole('spinbutton', { name: 'Level' }).fill('2')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByText(/^Rows 1–100 of/)).toBeVisible()
  await page.getByRole('table', { name: 'Results' }).getByRole('row').nth(3).getByRole('cell').nth(2).click()
  await shoot(page, 'grid')

  const statistics = page.getByRole('region', { name: 'Statistics' })
  const chart = statistics.getByRole('img', { name: 'Probability distribution' })
  const box = (await chart.boundingBox())!
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.5)
  await shoot(page, 'statistics-chart', statistics)
  await page.mouse.move(0, 0)

  await page.getByRole('button', { name: 'Details of row 2', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Row 2' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('officialName')
  await shoot(page, 'row-detail')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  await page.getByRole('tab', { name: 'Raw response' }).click()
  await expect(page.getByLabel('Response body')).toContainText('"items"')
  await shoot(page, 'raw-response')
})

test('screens: a service error and a validation error', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await runSearch(page, 'san')
  await page.getByRole('button', { name: 'Add step' }).click()
  const step2 = page.getByRole('group', { name: 'Step 2' })
  await step2.getByRole('combobox', { name: 'Endpoint' }).fill('sort')
  await step2.getByRole('combobox', { name: 'Endpoint' }).dispatchEvent('change')
  await step2.getByRole('textbox', { name: 'by' }).fill('colour')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('alert')).toContainText('must name an attribute of city')
  await shoot(page, 'error-service')

  // A fresh window (going to the same address would only change its fragment).
  await page.goto('about:blank')
  await page.goto(await app.pageUrl())
  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('alert')).toContainText('parameter "query" has an empty value')
  await shoot(page, 'error-validation')
})
