import type { Locator, Page } from '@playwright/test'
import { EMPTY_DRAFT, expect, test } from './fixtures/app'

/**
 * Screenshots of every screen of the explorer, at a laptop's 1024×700 and a
 * desktop's 1440×900, light and dark, into e2e/output/screens/
 * (`<screen>-<width>x<height>-<theme>.png`): the main screen with results and
 * facets, the grid, the row detail, the connection form with its advanced
 * settings, the statistics chart, the raw view and the error states. They are
 * for people to look at; the assertions only make sure each screen is really
 * there first.
 */

const OUT = 'e2e/output/screens'
const LAPTOP = { width: 1024, height: 700 }
const DESKTOP = { width: 1440, height: 900 }

async function shoot(
  page: Page,
  name: string,
  options: { target?: Locator; sizes?: { width: number; height: number }[]; arrange?: () => Promise<void> } = {},
): Promise<void> {
  const before = page.viewportSize()
  for (const size of options.sizes ?? [LAPTOP, DESKTOP]) {
    await page.setViewportSize(size)
    await options.arrange?.()
    for (const scheme of ['light', 'dark'] as const) {
      // The theme switch is on System, so the page follows the emulated preference (the chart redraws in its colours).
      await page.emulateMedia({ colorScheme: scheme })
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))')
      const path = `${OUT}/${name}-${size.width}x${size.height}-${scheme}.png`
      if (options.target) await options.target.screenshot({ path })
      else await page.screenshot({ path })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  if (before) await page.setViewportSize(before)
}

async function runSearch(page: Page, text: string): Promise<void> {
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(1)).toBeVisible()
}

test('screens: start, main screen with results and facets, grid, statistics, row detail, raw view', async ({ page, app }) => {
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
  // In a laptop window the statistics and facets start folded: the main screen as it opens, then with them unfolded.
  await shoot(page, 'main')
  await page.setViewportSize(LAPTOP)
  const insights = page.getByRole('button', { name: 'Statistics and facets' })
  await insights.click()
  await expect(insights).toHaveAttribute('aria-expanded', 'true')
  await shoot(page, 'main-panel-open', { sizes: [LAPTOP] })
  await insights.click()
  await expect(insights).toHaveAttribute('aria-expanded', 'false')
  await page.setViewportSize(DESKTOP)

  await page.getByRole('combobox', { name: 'Page size' }).selectOption('100')
  await page.getByRole('spinbutton', { name: 'Level' }).fill('2')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByText(/^Rows 1–100 of/)).toBeVisible()
  await page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(3).getByRole('gridcell').nth(2).click()
  await shoot(page, 'grid')

  const statistics = page.getByRole('region', { name: 'Statistics' })
  const chart = statistics.getByRole('img', { name: 'Probability distribution' })
  const box = (await chart.boundingBox())!
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.5)
  await shoot(page, 'statistics-chart', { target: statistics, sizes: [DESKTOP] })
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

test('screens: the connection form with its advanced settings', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  await page.getByRole('button', { name: 'New connection' }).click()
  const dialog = page.getByRole('dialog', { name: 'New connection' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Staging search')
  await dialog.getByText('Advanced settings').click()
  const deadline = dialog.getByRole('textbox', { name: 'Request deadline (seconds)' })
  await expect(deadline).toBeVisible()
  // In a short window the form scrolls: show the advanced settings, as the user who opened them sees them.
  await shoot(page, 'connection-dialog', { arrange: () => dialog.evaluate((element) => element.scrollTo(0, element.scrollHeight)) })
  // Started from the Spinque cloud preset: what is left to type, and the OAuth audience under Advanced.
  await dialog.getByRole('radio', { name: 'Spinque cloud' }).check()
  await expect(dialog.getByRole('textbox', { name: 'Audience' })).toBeVisible()
  await shoot(page, 'connection-dialog-preset', { arrange: () => dialog.evaluate((element) => element.scrollTo(0, 0)) })
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
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

  // A fresh window (going to the same address would only change its fragment), on a fresh chain: the app
  // otherwise brings back the chain being edited (the workspace session's draft).
  await page.goto('about:blank')
  await app.invoke('workspace:draft', { draft: EMPTY_DRAFT })
  await page.goto(await app.pageUrl())
  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('alert')).toContainText('parameter "query" has an empty value')
  await shoot(page, 'error-validation')
})
