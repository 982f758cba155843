import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { seriousViolationsBothThemes } from './fixtures/axe'
import { DESKTOP, LAPTOP, openApp, screenshotsBothSizes } from './fixtures/laptop'
import { openWorld, showView } from './fixtures/workbench'

/**
 * Experiments (browser host, by accessible names): the example workspace's
 * judged set run on config default (A) against production (B) with per-step
 * attribution; the means with their intervals and verdicts, the per-query
 * delta chart and table sorted by delta, a query opened in the compare view,
 * the attribution of the template's one step, probability against grade and
 * the kept evaluations' trend.
 */

const SET = 'World cities (synthetic judgments)'
const view = (page: Page) => page.getByRole('region', { name: 'Experiments', exact: true })
const means = (page: Page) => view(page).getByRole('table', { name: /^Means of A and B/ })
const meanRow = (page: Page, metric: string) => means(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: metric, exact: true }) })
const queries = (page: Page) => view(page).getByRole('table', { name: 'nDCG@10 of each query on A and B' })

/** The view scrolls as a whole: screenshots of its lower parts too, with `heading` at the top of the view, in both windows and themes. */
async function scrolledShots(page: Page, name: string, heading: Locator): Promise<void> {
  // The view's own scroll only (scrollIntoView would scroll the window's frame as well).
  const scrollTo = () =>
    heading.evaluate((element) => {
      const scroller = element.closest('.experiments')!
      scroller.scrollTop += element.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 8
    })
  for (const size of [LAPTOP, DESKTOP]) {
    await page.setViewportSize(size)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await scrollTo()
      await page.screenshot({ path: `e2e/output/screens/${name}-${size.width}-${colorScheme}.png` })
    }
  }
  await page.emulateMedia({ colorScheme: null })
  await page.setViewportSize(LAPTOP)
}

test('default against production: significant, the deltas sorted, a query compared, attribution, probability and trend', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  await showView(page, 'Experiments')
  await expect(view(page).getByRole('combobox', { name: 'Query set' })).toHaveValue(SET)

  const sides = view(page).getByRole('group', { name: 'Sides' })
  await sides.getByRole('combobox', { name: 'Side A config' }).selectOption('default')
  await sides.getByRole('combobox', { name: 'Side B config' }).selectOption('production')
  await expect(sides.getByRole('combobox', { name: 'Side A connection' })).toHaveValue(/.+/)
  await view(page).getByRole('checkbox', { name: 'Per-step attribution' }).check()
  await view(page).getByRole('button', { name: 'Run experiment' }).click()

  await expect(means(page)).toBeVisible()
  await expect(view(page).getByRole('button', { name: 'Run experiment' })).toBeEnabled()
  const ndcg = meanRow(page, 'nDCG@10')
  await expect(ndcg).toContainText('+0.325')
  await expect(ndcg.getByRole('cell').last()).toHaveText('significant')
  await expect(ndcg).toContainText(/\d+ \/ \d+ \/ \d+/)
  await expect(means(page).getByRole('columnheader', { name: /Holm over \d+/ })).toBeVisible()

  await expect(view(page).getByRole('img', { name: /^nDCG@10: B − A for each query/ })).toBeVisible()
  await expect(queries(page)).toBeVisible()
  const header = queries(page).getByRole('columnheader', { name: 'Δ' })
  await header.getByRole('button').click()
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  const deltas = await queries(page).getByRole('row').evaluateAll((rows) =>
    rows.slice(1).map((row) => Number(row.querySelectorAll('td')[2]?.textContent?.replace('−', '-'))).filter((value) => !Number.isNaN(value)),
  )
  expect(deltas.length).toBeGreaterThan(1)
  expect(deltas).toEqual([...deltas].sort((a, b) => b - a))

  await queries(page).getByRole('button', { name: 'Compare “san”', exact: true }).click()
  const compare = page.getByRole('region', { name: 'Compare view' })
  await expect(compare).toBeVisible()
  await expect(compare.getByRole('list', { name: 'Figures' })).toBeVisible()
  await expect(compare.getByRole('list', { name: 'Figures' }).getByRole('listitem', { name: /^RBO/ })).toBeVisible()

  await showView(page, 'Experiments')
  await expect(means(page)).toBeVisible()
  const attribution = view(page).getByRole('table', { name: 'What each step of the template adds, on A' })
  await expect(attribution.locator('tbody tr')).toHaveCount(1)
  await expect(attribution.getByRole('rowheader')).toHaveText('1: search')
  await expect(view(page)).toContainText('keeps 90 %')
  await expect(view(page).getByRole('img', { name: /probability band/ })).toBeVisible()
  const trend = view(page).getByRole('table', { name: 'nDCG@10 of each kept evaluation' })
  expect(await trend.locator('tbody tr').count()).toBeGreaterThanOrEqual(2)
  await expect(trend).toContainText('Demo, config production')

  await screenshotsBothSizes(page, 'experiments')
  await scrolledShots(page, 'experiments-queries', view(page).getByRole('heading', { name: /of each query: B against A$/ }))
  await scrolledShots(page, 'experiments-attribution', view(page).getByRole('heading', { name: 'Per-step attribution' }))
  await scrolledShots(page, 'experiments-history', view(page).getByRole('heading', { name: 'History of nDCG@10' }))
  await view(page).evaluate((element) => element.scrollTo({ top: 0 }))
  expect(await seriousViolationsBothThemes(page, 'Experiments view', '[aria-labelledby="experiments-title"]')).toEqual([])
})
