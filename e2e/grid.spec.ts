import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { seriousViolations } from './fixtures/axe'

/**
 * The results grid on a laptop's and a desktop's screen: ten columns at
 * 1440×900 keep Rank and the row's name pinned and the row actions in view,
 * the grid is one Tab stop, and axe finds nothing serious on the screen with
 * results nor in the row detail. Screenshots land in e2e/output/screens/.
 */

const OUT = 'e2e/output/screens'
const grid = (page: Page) => page.getByRole('grid', { name: 'Results' })

test.use({ viewport: { width: 1440, height: 900 } })

async function search(page: Page, text: string): Promise<void> {
  const step = page.getByRole('group', { name: 'Step 1' })
  // Wait for the API description (the app then preselects search), so the step's query field is the described one.
  await expect(step.getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  await step.getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible()
}

/** Ticks every attribute in the Columns menu: with rank, probability, id and class, the ten columns of a city. */
async function chooseTenColumns(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Columns' }).click()
  const menu = page.getByRole('group', { name: 'Attributes shown as columns' })
  for (const name of ['name', 'country', 'population', 'kind', 'latitude', 'longitude']) {
    await menu.getByRole('checkbox', { name, exact: true }).check()
  }
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  // Ten columns and the row actions' header.
  await expect(grid(page).getByRole('columnheader')).toHaveCount(11)
}

/** Whether the element is the one a click at its centre reaches (nothing pinned or scrolled covers it). */
async function onTop(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect()
    const hit = element.ownerDocument.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)
    return hit === element || element.contains(hit)
  })
}

const setScrollLeft = (target: Locator, to: 'start' | 'end') =>
  target.evaluate((element, end) => {
    element.scrollLeft = end ? element.scrollWidth : 0
  }, to === 'end')

async function shoot(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await page.screenshot({ path: `${OUT}/${name}-${colorScheme}.png` })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}


test('ten columns at 1440×900: Rank and the name stay pinned, and the row actions are in view without scrolling sideways', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'san')
  await chooseTenColumns(page)
  const results = grid(page)
  const row = results.getByRole('row').nth(1)
  const details = row.getByRole('button', { name: 'Details of row 1', exact: true })
  const copyRow = row.getByRole('button', { name: 'Copy row 1', exact: true })

  // Without scrolling sideways: the row's actions show whole inside the grid, on top, and work.
  await row.getByRole('gridcell').nth(2).hover()
  await expect(details).toBeInViewport({ ratio: 1 })
  await expect(copyRow).toBeInViewport({ ratio: 1 })
  expect(await onTop(details)).toBe(true)
  expect(await onTop(copyRow)).toBe(true)
  await shoot(page, 'grid-wide-1440')

  // Scrolled right to the end: Rank and the name stay at the grid's left edge.
  const gridBox = (await results.boundingBox())!
  await setScrollLeft(results, 'end')
  const rank = row.getByRole('gridcell').first()
  const name = row.getByRole('gridcell').nth(4)
  await expect(results.getByRole('columnheader').nth(4)).toHaveText('name')
  await expect.poll(async () => (await rank.boundingBox())!.x).toBe(gridBox.x)
  expect((await name.boundingBox())!.x).toBe(gridBox.x + (await rank.boundingBox())!.width)
  await expect(rank).toBeInViewport({ ratio: 1 })
  expect(await onTop(rank)).toBe(true)
  expect(await onTop(name)).toBe(true)
  await expect(results.getByRole('columnheader', { name: 'Rank' })).toBeInViewport({ ratio: 1 })
  await expect(details).toBeInViewport({ ratio: 1 })
  await shoot(page, 'grid-wide-1440-scrolled')
  await setScrollLeft(results, 'start')

  await details.click()
  await expect(page.getByRole('dialog', { name: 'Row 1' })).toBeVisible()
  await page.keyboard.press('Escape')
})

test('the grid is one Tab stop, and its keys reach the row actions', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'san')
  const results = grid(page)
  // The active cell's name also holds its Copy cell button's: find cells by their place.
  const rank = (row: number) => results.getByRole('row').nth(row).getByRole('gridcell').first()
  // Export is the last control before the grid.
  await page.getByRole('button', { name: 'Export', exact: true }).focus()
  await page.keyboard.press('Tab')
  await expect(rank(1)).toBeFocused()
  // Down to row 2, then Enter opens its detail, as the Details button does.
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'Row 2' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(rank(2)).toBeFocused()
  await page.keyboard.press('Tab')
  expect(await results.evaluate((element) => element.contains(element.ownerDocument.activeElement))).toBe(false)
  await page.keyboard.press('Shift+Tab')
  await expect(rank(2)).toBeFocused()
})

test('axe: no serious or critical violation on the screen with results, in the row detail, nor in the connection form', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'san')
  await grid(page).getByRole('row').nth(2).getByRole('gridcell').nth(4).click()
  // Every finding at once, both themes, so one run lists all there is to fix.
  const found: string[] = []
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const line of await seriousViolations(page)) found.push(`main screen, ${colorScheme}: ${line}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })

  await page.getByRole('spinbutton', { name: 'Level' }).fill('2')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(grid(page).getByRole('button', { name: 'Open country of row 1', exact: true })).toBeVisible()
  await grid(page).getByRole('button', { name: 'Details of row 1', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Row 1' })
  await expect(dialog).toContainText('officialName')
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const line of await seriousViolations(page, 'dialog')) found.push(`row detail, ${colorScheme}: ${line}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // The connection form, with its advanced settings open and a field's problem showing.
  await page.getByRole('button', { name: 'New connection' }).click()
  const form = page.getByRole('dialog', { name: 'New connection' })
  await form.getByText('Advanced settings').click()
  await form.getByRole('textbox', { name: 'Request deadline (seconds)' }).fill('0')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByRole('alert')).toBeVisible()
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const line of await seriousViolations(page, 'dialog')) found.push(`connection form, ${colorScheme}: ${line}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  expect(found).toEqual([])
})

/** The side panel's statistics and facets answered for the chain as it is: nothing greyed while it is asked again. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('.statistics--stale, .facet__options--stale, [aria-busy="true"]')).toHaveCount(0)
}

/**
 * What axe finds in both themes, asked until it holds: axe reads colours, and a part fading in or out (the
 * greyed "being updated" look is an opacity with a short transition) is measured as it is at that instant.
 * A lasting problem still fails, with axe's lines, once the poll gives up.
 */
async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  await expect
    .poll(async () => {
      const found: string[] = []
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        for (const line of await seriousViolations(page)) found.push(`${what}, ${colorScheme}: ${line}`)
      }
      await page.emulateMedia({ colorScheme: 'light' })
      return found
    })
    .toEqual([])
}

test('axe: no serious or critical violation with a switched-off step, a ticked facet and a statistics answer, in both themes', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'san')
  const toggle = page.getByRole('button', { name: 'Statistics and facets' })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  const country = page.getByRole('group', { name: 'country' })
  await country.getByRole('checkbox', { name: 'Italy' }).check()
  await expect(country.getByRole('button', { name: 'Clear country' })).toBeEnabled()
  await expect(country.getByText('1 selected')).toBeVisible()
  // The facet's filter step, switched off: its text stays readable (it was at 2.5:1 light and 3.25:1 dark).
  const step2 = page.getByRole('group', { name: 'Step 2' })
  await step2.getByRole('switch', { name: 'Step on' }).uncheck()
  await expect(step2.getByText('Off: this step is not sent.')).toBeVisible()
  // The chain changed, so the side panel asks again.
  await settled(page)
  await expectNoSeriousViolations(page, 'results')

  await page.getByRole('combobox', { name: 'Response type' }).selectOption('statistics')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('region', { name: 'Statistics response' }).getByRole('img', { name: 'Probability distribution' })).toBeVisible()
  await settled(page)
  await expectNoSeriousViolations(page, 'statistics answer')
  await shoot(page, 'step-off-statistics-answer')
})

test('screenshots of the grid at 1024×700', async ({ page, app }) => {
  await page.setViewportSize({ width: 1024, height: 700 })
  await page.goto(await app.pageUrl())
  await search(page, 'san')
  await grid(page).getByRole('row').nth(3).getByRole('gridcell').nth(4).click()
  await shoot(page, 'grid-1024')
  await setScrollLeft(grid(page), 'end')
  await shoot(page, 'grid-1024-scrolled')
})
