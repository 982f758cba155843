import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { seriousViolationsBothThemes } from './fixtures/axe'
import { DESKTOP, openApp, screenshotsBothSizes } from './fixtures/laptop'
import { openWorld, showView } from './fixtures/workbench'

/**
 * Relevance evaluation (browser host, by accessible names): the example
 * workspace's judged set evaluated on default and production, the figures
 * and the per-query table; a query opened in the grid and rated by keyboard,
 * which moves its figure at once; Judge mode walking a new query's results
 * by keyboard; a Quepid CSV imported; the evaluation exported as a TREC run.
 */

const SET = 'World cities (synthetic judgments)'
const view = (page: Page) => page.getByRole('region', { name: 'Evaluation' })
const means = (page: Page) => view(page).getByRole('list', { name: 'Means' })
const mean = (page: Page, label: string) => means(page).getByRole('listitem').filter({ hasText: label })
const table = (page: Page) => view(page).getByRole('table', { name: /^Each query's figures/ })
const queryRow = (page: Page, text: string) => table(page).getByRole('row').filter({ has: page.getByRole('rowheader').filter({ hasText: new RegExp(`^${text} `) }) })

/**
 * Evaluates the set on the demo with `config` and waits for that evaluation to be the one shown: a new kept
 * evaluation (earlier tests of this app keep theirs too), the newest chosen.
 */
async function evaluateOn(page: Page, config: string): Promise<void> {
  const kept = view(page).getByRole('combobox', { name: 'Kept evaluation' }).locator('option')
  // The newest kept evaluation is listed first: a new one is there when the first option is another (the list's
  // length is no sign: it may still be filling in from earlier tests of this app when it is read).
  const newest = async () => ((await kept.count()) > 0 ? await kept.first().getAttribute('value') : null)
  const before = await newest()
  await view(page).getByRole('combobox', { name: 'Evaluate with config' }).selectOption(config)
  await view(page).getByRole('button', { name: 'Evaluate', exact: true }).click()
  await expect.poll(newest).not.toBe(before)
  await expect(view(page).getByRole('combobox', { name: 'Kept evaluation' })).toHaveValue((await kept.first().getAttribute('value'))!)
  await expect(kept.first()).toContainText(`config ${config}`)
  await expect(view(page).getByRole('button', { name: 'Evaluate', exact: true })).toBeEnabled()
}

test('the example set: evaluated on default and production, its figures, the table sorted, a TREC run exported', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  await showView(page, 'Evaluation')
  await expect(view(page).getByRole('combobox', { name: 'Query set' })).toHaveValue(SET)
  await expect(view(page)).toContainText('36 queries · 2349 judgments')

  await evaluateOn(page, 'default')
  // The figures the example's own script printed for it (docs: examples and scripts/make-example-set.ts).
  await expect(mean(page, 'nDCG@10')).toContainText('0.612')
  await expect(view(page)).toContainText('means over 36 of 36 queries')
  await expect(view(page)).toContainText('exponential gain (2^g − 1) · unjudged results count as not relevant · relevant from grade 1 (Fair) · depth 100')
  await expect(view(page).getByRole('status').filter({ hasText: 'Every result in the top 10' })).toBeVisible()
  await evaluateOn(page, 'production')
  await expect(mean(page, 'nDCG@10')).toContainText('0.936')

  // Sorted by nDCG@10, lowest first on a second click.
  const header = table(page).getByRole('columnheader', { name: 'nDCG@10' })
  await header.getByRole('button').click()
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  await header.getByRole('button').click()
  await expect(header).toHaveAttribute('aria-sort', 'ascending')
  const column = async () => (await table(page).getByRole('row').evaluateAll((rows) => rows.slice(1).map((row) => Number(row.querySelector('td')?.textContent))))
  const ascending = await column()
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b))

  await screenshotsBothSizes(page, 'evaluation')
  expect(await seriousViolationsBothThemes(page, 'Evaluation view', '[aria-labelledby="evaluation-title"]')).toEqual([])

  const downloading = page.waitForEvent('download')
  await view(page).getByRole('button', { name: 'Export TREC run' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/\.run\.txt$/)
  const lines = readFileSync((await download.path())!, 'utf8').trim().split('\n')
  expect(lines[0]).toMatch(/^q01 Q0 \S+ 1 \d+ \S+$/)
})

test('Open rates the ranking whose figures are on screen, whatever the pickers say; the other views keep A the baseline', async ({ page, app }) => {
  await openApp(page, app)
  await openWorld(page)
  await showView(page, 'Evaluation')
  const urlBox = page.getByRole('textbox', { name: 'Request URL' })
  const banner = page.getByRole('region', { name: 'Rating' })
  await evaluateOn(page, 'production')
  await evaluateOn(page, 'default')
  // The picker moves on to production; the figures on screen are still default's, and Open rates those.
  await view(page).getByRole('combobox', { name: 'Evaluate with config' }).selectOption('production')
  await queryRow(page, 'paris').getByRole('button', { name: 'Open “paris” in the grid' }).click()
  await expect(urlBox).toHaveValue(/[?&]config=default(&|$)/)
  await expect(banner).toContainText('on Demo, config default, as evaluated (depth 100)')

  // The production evaluation shown: Open runs production, and says so.
  await showView(page, 'Evaluation')
  const kept = view(page).getByRole('combobox', { name: 'Kept evaluation' })
  await kept.selectOption((await kept.locator('option').filter({ hasText: 'config production' }).first().getAttribute('value'))!)
  await queryRow(page, 'paris').getByRole('button', { name: 'Open “paris” in the grid' }).click()
  await expect(urlBox).toHaveValue(/[?&]config=production(&|$)/)
  await expect(banner).toContainText('on Demo, config production, as evaluated (depth 100)')

  // The top bar now runs production; Experiments and Compare still start from A = default, B = production.
  await showView(page, 'Experiments')
  const sides = page.getByRole('region', { name: 'Experiments', exact: true }).getByRole('group', { name: 'Sides' })
  await expect(sides.getByRole('combobox', { name: 'Side A config' })).toHaveValue('default')
  await expect(sides.getByRole('combobox', { name: 'Side B config' })).toHaveValue('production')
  await showView(page, 'Compare')
  const compare = page.getByRole('region', { name: 'Compare view' })
  await compare.getByRole('button', { name: 'Config A vs config B' }).click()
  await expect(compare.getByRole('combobox', { name: 'Config A' })).toHaveValue('default')
  await expect(compare.getByRole('combobox', { name: 'Config B' })).toHaveValue('production')
})

test('a query opened in the grid is rated by keyboard and its figure follows; Judge walks a new query by keyboard; a Quepid CSV is imported', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  await showView(page, 'Evaluation')
  await evaluateOn(page, 'default')
  const parisNdcg = () => queryRow(page, 'paris').getByRole('cell').first()
  const before = (await parisNdcg().textContent())!
  expect(Number(before)).toBeGreaterThan(0)

  // Open → the Results view with the Rating column; rate the first row Poor, then Perfect again.
  await queryRow(page, 'paris').getByRole('button', { name: 'Open “paris” in the grid' }).click()
  const grid = page.getByRole('grid', { name: 'Results' })
  await expect(page.getByRole('region', { name: 'Rating' })).toContainText('Rating results for “paris” (q01)')
  await expect(grid.getByRole('columnheader', { name: 'Rating' })).toBeVisible()
  const firstRating = grid.getByRole('row').nth(1).getByRole('gridcell').nth(1)
  // The column is this window's rater's own grades (the example's three raters graded the row; this person has not yet).
  await expect(page.getByRole('region', { name: 'Rating' })).toContainText('in World cities (synthetic judgments) as ')
  await expect(firstRating).toHaveText('')
  await screenshotsBothSizes(page, 'grid-rating')
  await firstRating.click()
  await page.keyboard.press('0')
  await expect(firstRating).toHaveText('0 Poor')
  await expect(grid.locator('..').getByRole('status')).toHaveText(/Rated row 1: 0 Poor/)
  await showView(page, 'Evaluation')
  await expect(parisNdcg()).not.toHaveText(before)
  await showView(page, 'Results')
  await firstRating.click()
  await page.keyboard.press('3')
  await expect(firstRating).toHaveText('3 Perfect')
  // Cleared: this person's grade goes, the three raters' stay, and the figure is what it was.
  await page.keyboard.press('Delete')
  await expect(firstRating).toHaveText('')
  await page.getByRole('region', { name: 'Rating' }).getByRole('button', { name: 'Stop rating' }).click()
  await expect(grid.getByRole('columnheader', { name: 'Rating' })).toHaveCount(0)

  // A new query, evaluated: nothing of it is judged; Judge it by keyboard.
  await showView(page, 'Evaluation')
  await expect(parisNdcg()).toHaveText(before)
  await view(page).getByRole('button', { name: 'Edit set' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit query set' })
  const queries = dialog.getByRole('textbox', { name: /^Queries, one a line/ })
  await queries.fill(`${await queries.inputValue()}\nlake`)
  await screenshotsBothSizes(page, 'set-dialog')
  await dialog.getByRole('button', { name: 'Save set' }).click()
  await expect(dialog).toBeHidden()
  await expect(view(page)).toContainText('37 queries · 2349 judgments')
  await evaluateOn(page, 'default')
  await expect(queryRow(page, 'lake')).toContainText('no judgment yet')
  await queryRow(page, 'lake').getByRole('button', { name: 'Judge “lake”' }).click()
  const judge = page.getByRole('dialog', { name: 'Judge results' })
  // Asked once per data folder: the person's name, under which their grades go beside the example's raters'.
  const name = judge.getByRole('textbox', { name: 'Your name as a rater' })
  if ((await name.count()) > 0) {
    await name.fill('Eve')
    await name.press('Enter')
  }
  await expect(judge).toContainText('Rating as ')
  await expect(judge.getByRole('region', { name: 'Item to judge' })).toContainText('“lake”')
  await screenshotsBothSizes(page, 'judge-dialog')
  expect(await seriousViolationsBothThemes(page, 'Judge dialog', 'dialog')).toEqual([])
  const progress = judge.getByRole('progressbar', { name: 'Judging progress' })
  const total = Number(/of (\d+) rated/.exec((await progress.getAttribute('aria-valuetext')) ?? '')?.[1])
  expect(total).toBeGreaterThan(1)
  await page.keyboard.press('3')
  await expect(progress).toHaveAttribute('aria-valuetext', `1 of ${total} rated`)
  await page.keyboard.press('s')
  await page.keyboard.press('1')
  await expect(progress).toHaveAttribute('aria-valuetext', `2 of ${total} rated`)
  await page.keyboard.press('Escape')
  await expect(judge).toBeHidden()
  // The two ratings count at once: the query has figures now, and two fewer unjudged.
  await expect(queryRow(page, 'lake')).not.toContainText('no judgment yet')
  await expect(view(page)).toContainText('37 queries · 2351 judgments')

  // A Quepid CSV: a judgment of a query the set has, and one of a query it doesn't.
  mkdirSync('e2e/output', { recursive: true })
  writeFileSync('e2e/output/ratings.csv', 'query,docid,rating\nparis,2988507,3\nzaragoza,3104324,3\n')
  const chooser = page.waitForEvent('filechooser')
  await view(page).getByRole('button', { name: 'Import judgments' }).click()
  await (await chooser).setFiles('e2e/output/ratings.csv')
  await expect(page.getByText('Imported 2 judgments, 1 new query from ratings.csv.')).toBeVisible()
  await expect(view(page)).toContainText('38 queries · 2353 judgments')
  // The workspace has changes to save.
  await expect(page.getByRole('region', { name: 'Saved queries' })).toContainText(/unsaved/i)
})
