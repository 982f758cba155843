import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { seriousViolationsBothThemes } from './fixtures/axe'
import { LAPTOP, openApp } from './fixtures/laptop'
import { openWorld, showView } from './fixtures/workbench'

/**
 * A disagreement's Open (browser host, by accessible names): the example
 * set's raters differ on items; Open runs the query in Results with the item
 * marked there (the current row, scrolled to, the active row: a digit rates
 * it at once), or the banner says it is not on the page of results. A
 * screenshot of the marked row in the laptop window, light and dark; axe
 * finds nothing serious in the results view.
 */

const view = (page: Page) => page.getByRole('region', { name: 'Evaluation' })
const banner = (page: Page) => page.getByRole('region', { name: 'Rating' })

test("a disagreement's Open marks the item in Results, where a digit rates it", async ({ page, app }) => {
  await openApp(page, app, LAPTOP)
  await openWorld(page)
  await showView(page, 'Evaluation')
  await view(page).getByRole('tab', { name: 'Agreement' }).click()
  const disagreements = view(page).getByRole('table', { name: 'Disagreements' })
  await expect(disagreements.getByRole('row').nth(1)).toBeVisible()
  const opens = disagreements.getByRole('button', { name: /^Open “.*” in Results, .* marked$/ })
  const count = await opens.count()
  const grid = page.getByRole('grid', { name: 'Results' })
  const marked = grid.locator('[role=row][aria-current=true]')

  // The disagreements in the table's order, until one's item is on the first page of its query's results:
  // each is marked there, or the banner says it is not on the page.
  let found: string | null = null
  for (let at = 0; at < count && found === null; at++) {
    if (at > 0) {
      await showView(page, 'Evaluation')
      await view(page).getByRole('tab', { name: 'Agreement' }).click()
    }
    const open = opens.nth(at)
    const name = (await open.getAttribute('aria-label'))!
    const [, text, item] = /^Open “(.*)” in Results, (.*) marked$/.exec(name)!
    await open.click()
    await expect(banner(page)).toContainText(`Rating results for “${text}”`)
    await expect(marked.or(banner(page).getByText('The item marked is not on this page of results'))).toBeVisible()
    if ((await marked.count()) === 0) {
      await expect(banner(page).getByRole('status')).toContainText(`(${item})`)
      continue
    }
    found = item!
    await expect(marked).toHaveCount(1)
    await expect(marked).toBeInViewport()
    await expect(marked.locator('.grid__cell--active')).toBeFocused()
    await expect(banner(page).getByRole('status')).toHaveText('')
  }
  expect(found, 'an item the raters differ on is on the first page of its query').not.toBeNull()

  // The pointer off the rows, so the picture shows no hovered row beside the marked one.
  await page.mouse.move(0, 0)
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await page.screenshot({ path: `e2e/output/screens/marked-item-1024-${colorScheme}.png` })
  }
  await page.emulateMedia({ colorScheme: null })
  expect(await seriousViolationsBothThemes(page, 'Results with a marked row', '#results-view')).toEqual([])

  // A digit rates the marked row at once, as this window's rater.
  await page.keyboard.press('2')
  await expect(marked.getByRole('gridcell').nth(1)).toHaveText('2 Good')
})
