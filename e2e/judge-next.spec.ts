import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { seriousViolationsBothThemes } from './fixtures/axe'
import { DESKTOP, LAPTOP, openApp } from './fixtures/laptop'
import { showView } from './fixtures/workbench'

/**
 * What to judge next (browser host, by accessible names), on the example
 * workspace with a third of its judged (query, item) pairs taken out, so its
 * top 10s have unjudged results: the Evaluation view's means and figures with
 * their intervals, Judge next walking the queue in the Judge dialog and the
 * figures asked for again after a rating; the Experiments view's verdicts
 * (could change sign, significance, or decided) and the summary sentence.
 * Screenshots at 1024×700 and 1440×900.
 */

const SET = 'World cities (synthetic judgments)'

/** examples/world.qxw.json with every third judged pair (by a hash of query and item) left unjudged. */
function thinnedWorld(): string {
  const workspace = JSON.parse(readFileSync('examples/world.qxw.json', 'utf8')) as { sets: { judgments: { query: string; item: string }[] }[] }
  const hash = (text: string) => [...text].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 1_000_003, 7)
  for (const set of workspace.sets) set.judgments = set.judgments.filter((judgment) => hash(`${judgment.query}/${judgment.item}`) % 3 !== 0)
  const path = join(mkdtempSync(join(tmpdir(), 'qe-judge-next-')), 'world.qxw.json')
  writeFileSync(path, JSON.stringify(workspace, null, 2))
  return path
}

async function openThinnedWorld(page: Page): Promise<void> {
  const saved = page.getByRole('region', { name: 'Saved queries' })
  const chooser = page.waitForEvent('filechooser')
  await saved.getByRole('button', { name: 'Open workspace' }).click()
  await page.getByRole('menuitem', { name: 'Open file…' }).click()
  await (await chooser).setFiles(thinnedWorld())
  await expect(saved.getByRole('heading')).toHaveText('world')
  await expect(page.getByRole('dialog')).toHaveCount(0)
}

/** Screenshots with `target` at the top of its scrolling view, in both windows, light and dark. */
async function shotsAt(page: Page, name: string, target: Locator, scroller: string): Promise<void> {
  for (const size of [LAPTOP, DESKTOP]) {
    await page.setViewportSize(size)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await target.evaluate((element, selector) => {
        const frame = element.closest(selector)!
        frame.scrollTop += element.getBoundingClientRect().top - frame.getBoundingClientRect().top - 8
      }, scroller)
      await page.screenshot({ path: `e2e/output/screens/${name}-${size.width}-${colorScheme}.png` })
    }
  }
  await page.emulateMedia({ colorScheme: null })
  await page.setViewportSize(LAPTOP)
}

test('the means and figures with their intervals, Judge next walking the queue, the verdicts of an experiment', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await openThinnedWorld(page)
  await showView(page, 'Evaluation')
  const evaluation = page.getByRole('region', { name: 'Evaluation' })
  await expect(evaluation.getByRole('combobox', { name: 'Query set' })).toHaveValue(SET)
  await evaluation.getByRole('combobox', { name: 'Evaluate with config' }).selectOption('default')
  await evaluation.getByRole('button', { name: 'Evaluate', exact: true }).click()
  const means = evaluation.getByRole('list', { name: 'Means' })
  const ndcg = means.getByRole('listitem').filter({ hasText: 'nDCG@10' })
  await expect(ndcg).toContainText(/\d\.\d{3}\s*\d\.\d{3}–\d\.\d{3} with the unjudged judged/, { timeout: 30_000 })
  const summary = evaluation.getByRole('status').filter({ hasText: 'could move the means' })
  await expect(summary).toContainText(/^\d+ unjudged pairs could move the means: nDCG@10 /)
  const table = evaluation.getByRole('table', { name: /^Each query's figures/ })
  await expect(table.getByRole('row').filter({ hasText: /\d\.\d{3}–\d\.\d{3}/ }).first()).toBeVisible()
  await shotsAt(page, 'judge-next-evaluation', evaluation.getByRole('list', { name: 'Means' }), '.evaluation')
  expect(await seriousViolationsBothThemes(page, 'Evaluation view with intervals', '[aria-labelledby="evaluation-title"]')).toEqual([])

  // Judge next: the dialog walks the queue; one rating and the intervals are asked for again.
  const before = await summary.textContent()
  await evaluation.getByRole('button', { name: 'Judge next' }).click()
  const dialog = page.getByRole('dialog', { name: 'Judge results' })
  // The dialog asks the person's name first, unless an earlier test of this app gave it.
  const name = dialog.getByRole('textbox', { name: 'Your name as a rater' })
  const heading = dialog.getByRole('heading', { name: 'Unrated of What to judge next' })
  await expect(name.or(heading)).toBeVisible()
  if (await name.isVisible()) {
    await name.fill('E2E rater')
    await name.press('Enter')
  }
  await expect(heading).toBeVisible()
  const card = dialog.getByRole('region', { name: 'Item to judge' })
  await expect(card).toContainText(/Query 1 of \d+ · item 1 of \d+ to judge/)
  await page.keyboard.press('3')
  await expect(card).toContainText(/item 2 of \d+ to judge|Query 2 of/)
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(summary).not.toHaveText(before!)

  await showView(page, 'Experiments')
  const experiments = page.getByRole('region', { name: 'Experiments', exact: true })
  const sides = experiments.getByRole('group', { name: 'Sides' })
  await sides.getByRole('combobox', { name: 'Side A config' }).selectOption('default')
  await sides.getByRole('combobox', { name: 'Side B config' }).selectOption('production')
  await experiments.getByRole('checkbox', { name: 'Per-step attribution' }).uncheck()
  await experiments.getByRole('button', { name: 'Run experiment' }).click()
  const section = experiments.getByRole('region', { name: 'What judging could change' })
  const verdicts = section.getByRole('table', { name: /^What judging the unjudged results could change/ })
  await expect(verdicts.getByRole('row').filter({ hasText: 'nDCG@10' })).toContainText(/[+−]\d\.\d{3} to [+−]\d\.\d{3}\s*\S.*(could change|decided)/, { timeout: 60_000 })
  await expect(section.getByRole('status')).toContainText(/could change a verdict|Nothing left to judge changes a verdict/)
  await expect(section.getByRole('button', { name: 'Judge next' })).toBeVisible()
  expect(await seriousViolationsBothThemes(page, 'What judging could change', '[aria-labelledby="exp-judge-next-title"]')).toEqual([])
  await shotsAt(page, 'judge-next-experiments', experiments.getByRole('heading', { name: 'What judging could change' }), '.experiments')
})
