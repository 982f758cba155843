import { copyFileSync, mkdirSync } from 'node:fs'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { DESKTOP, LAPTOP, openApp } from './fixtures/laptop'
import { openWorld, showView } from './fixtures/workbench'

/**
 * LLM judges in the window (browser host, by accessible names), on the
 * example workspace and the embedded demo's judge (demo-judge at the demo's
 * /v1): a judge added with the Add judge dialog at the demo's own origin (the
 * example's "demo" judge, moved with the demo connection, names it in its key
 * field); a run with a budget of 3 calls stops there and keeps its 3 grades;
 * the estimate of the rest; the set's top 5 judged; the grades in the grid
 * under the rater llm:…; the calibration against the example's raters (rule-
 * made, so "the set's other raters") in the Agreement part; and "Does the
 * verdict hold?" of an experiment default vs production. Screenshots at
 * 1024×700 and 1440×900 (docs/screenshots/judges.png, judges-grid.png,
 * judges-calibration.png, judges-verdict.png); the page itself never scrolls.
 */

const SET = 'World cities (synthetic judgments)'
const JUDGE = 'e2e judge'
const RATER = `llm:${JUDGE}`
const OUT = 'e2e/output/screens'

const evaluation = (page: Page) => page.getByRole('region', { name: 'Evaluation' })
const experiments = (page: Page) => page.getByRole('region', { name: 'Experiments', exact: true })

/** The page is never taller or wider than the window: what does not fit scrolls inside its view. */
async function pageFits(page: Page): Promise<void> {
  const sizes = (await page.evaluate(
    '({ height: document.scrollingElement.scrollHeight, width: document.scrollingElement.scrollWidth, innerHeight, innerWidth })',
  )) as { height: number; width: number; innerHeight: number; innerWidth: number }
  expect(sizes.height).toBeLessThanOrEqual(sizes.innerHeight)
  expect(sizes.width).toBeLessThanOrEqual(sizes.innerWidth)
}

/**
 * Screenshots with `target` at the top of its scrolling view, at both sizes, light and dark, as
 * e2e/output/screens/<name>-<width>-<theme>.png (the 1440 light one also in docs/screenshots/<name>.png);
 * at each size the page fits the window.
 */
async function shots(page: Page, name: string, target: Locator): Promise<void> {
  // No note left over (opening the file's lies over the chain), nothing hovered or focused: the view as it rests.
  const dismiss = page.getByRole('status').getByRole('button', { name: 'Dismiss' })
  while ((await dismiss.count()) > 0) await dismiss.first().click()
  await page.mouse.move(0, 0)
  await page.evaluate('document.activeElement?.blur()')
  for (const size of [LAPTOP, DESKTOP]) {
    await page.setViewportSize(size)
    await pageFits(page)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await target.evaluate((element) => {
        // The nearest ancestor that scrolls: the view's own frame.
        const view = element.ownerDocument.defaultView!
        let frame = element.parentElement
        while (frame && !(frame.scrollHeight > frame.clientHeight && ['auto', 'scroll'].includes(view.getComputedStyle(frame).overflowY))) frame = frame.parentElement
        if (frame) frame.scrollTop += element.getBoundingClientRect().top - frame.getBoundingClientRect().top - 8
      })
      await page.screenshot({ path: `${OUT}/${name}-${size.width}-${colorScheme}.png` })
    }
  }
  await page.emulateMedia({ colorScheme: null })
  await page.setViewportSize(DESKTOP)
  mkdirSync('docs/screenshots', { recursive: true })
  copyFileSync(`${OUT}/${name}-1440-light.png`, `docs/screenshots/${name}.png`)
}

test('a judge defined on the demo: a budget of 3 calls, the estimate, the top 5 judged, its grades in the grid, its calibration, whether the verdict holds', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  await showView(page, 'Evaluation')
  await expect(evaluation(page).getByRole('combobox', { name: 'Query set' })).toHaveValue(SET)

  // The set evaluated on default, as the judge will grade it: its per-query table opens a query in the grid later.
  await evaluation(page).getByRole('combobox', { name: 'Evaluate with config' }).selectOption('default')
  await evaluation(page).getByRole('button', { name: 'Evaluate', exact: true }).click()
  const perQuery = evaluation(page).getByRole('table', { name: /^Each query's figures/ })
  await expect(perQuery.getByRole('button', { name: 'Open “paris” in the grid' })).toBeVisible()

  await evaluation(page).getByRole('tab', { name: 'Judges' }).click()
  const judges = evaluation(page).getByRole('tabpanel', { name: 'Judges' })
  const list = judges.getByRole('table', { name: 'LLM judges' })
  // The example's judge, labelled as the demo's stand-in; its key field names the origin its calls go to: the
  // running demo's, not the file's port 8080 (the judge moved with the demo connection).
  const demoRow = list.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'llm:demo demo', exact: true }) })
  await expect(demoRow.getByRole('cell').nth(1)).toHaveText('demo-judge')
  const keyForm = judges.getByRole('form', { name: 'API key of demo' })
  const keyField = keyForm.getByLabel(/^API key for /)
  await expect(keyField).toHaveAttribute('aria-label', /^API key for http:\/\/127\.0\.0\.1:\d+$/)
  const origin = (await keyField.getAttribute('aria-label'))!.replace('API key for ', '')
  expect(origin).not.toBe('http://127.0.0.1:8080')
  // The list shows where its calls go too, the file's address in the cell's title.
  await expect(demoRow.getByRole('cell').nth(2)).toHaveText(`${origin}/v1`)
  await expect(keyForm.getByRole('status')).toHaveText('No key stored — not needed for the demo or Ollama')

  // Add judge: OpenAI-compatible at the demo's /v1, the demo's model, each query's top 5.
  await judges.getByRole('button', { name: 'Add judge' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add LLM judge' })
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(JUDGE)
  await dialog.getByRole('combobox', { name: 'Provider' }).selectOption({ label: 'OpenAI Chat Completions (OpenAI, Ollama, vLLM, LM Studio)' })
  await dialog.getByRole('textbox', { name: 'Base URL' }).fill(`${origin}/v1`)
  await dialog.getByRole('textbox', { name: 'Model', exact: true }).fill('demo-judge')
  await dialog.getByRole('spinbutton', { name: 'Depth (each query\'s top k)' }).fill('5')
  await dialog.getByRole('button', { name: 'Add judge' }).click()
  await expect(dialog).toHaveCount(0)
  const row = list.getByRole('row').filter({ has: page.getByRole('rowheader', { name: RATER }) })
  // Labelled "demo" as the demo's model is everywhere.
  await expect(row.getByRole('rowheader')).toHaveText(`${RATER} demo`)
  await expect(row.getByRole('cell')).toHaveText(['OpenAI-compatible', 'demo-judge', `${origin}/v1`, '0', /Edit\s*Delete/])
  // The new judge is the one to run, at its own depth.
  await expect(judges.getByRole('combobox', { name: 'Judge to run' })).toHaveValue(JUDGE)
  await expect(judges.getByRole('spinbutton', { name: 'Judging depth' })).toHaveValue('5')
  await expect(judges.getByRole('heading', { name: `Judge ${SET} with ${JUDGE}` })).toBeVisible()

  // A budget of 3 calls: the run stops there, keeps the 3 grades, and says how many are left; that is no failure.
  const budget = judges.getByRole('spinbutton', { name: 'Budget, calls' })
  await budget.fill('3')
  await judges.getByRole('button', { name: 'Judge', exact: true }).click()
  const end = judges.getByRole('status').filter({ hasText: /^(Stopped|Done|Cancelled)/ })
  await expect(end).toHaveText(/^Stopped at the budget of 3 calls: 3 graded, (\d+) left\.$/)
  // What is left is the rest of the set's top 5s (a query with fewer results has fewer items).
  const left = Number(/(\d+) left/.exec((await end.textContent())!)![1])
  const total = left + 3
  expect(total).toBeGreaterThan(30 * 5)
  expect(total).toBeLessThanOrEqual(36 * 5)
  await expect(row.getByRole('cell').nth(3)).toHaveText('3')
  await expect(judges.getByRole('button', { name: 'Retry failed' })).toHaveCount(0)

  // The estimate of the rest, before any call: the calls left, the input tokens, the 3 already graded.
  await budget.fill('1000')
  await judges.getByRole('button', { name: 'Estimate' }).click()
  await expect(judges.getByRole('status').filter({ hasText: /^about / })).toHaveText(
    new RegExp(`^about ${left} calls, [\\d,.]+( k| M)? input tokens · 0 from the cache · 0 stale · 3 already graded\\.$`),
  )

  // The set's top 5 judged within the budget: every item left is graded, one call each.
  await judges.getByRole('button', { name: 'Judge', exact: true }).click()
  await expect(end).toHaveText(new RegExp(`^Done: ${left} graded, ${left} calls, [\\d,]+ tokens\\.$`))
  await expect(row.getByRole('cell').nth(3)).toHaveText(String(total))
  await expect(judges.getByRole('button', { name: 'Retry failed' })).toHaveCount(0)
  await shots(page, 'judges', evaluation(page).getByRole('tablist', { name: 'Evaluation parts' }))

  // The grades in the grid: paris opened from the figures shows the judge's read-only column after the person's Rating.
  await evaluation(page).getByRole('tab', { name: 'Figures' }).click()
  await perQuery.getByRole('button', { name: 'Open “paris” in the grid' }).click()
  const grid = page.getByRole('grid', { name: 'Results' })
  await expect(page.getByRole('region', { name: 'Rating' })).toContainText('Rating results for “paris” (q01)')
  const headers = grid.getByRole('columnheader')
  await expect(grid.getByRole('columnheader', { name: `${RATER} (demo)`, exact: true })).toBeVisible()
  const texts = await headers.allTextContents()
  const at = texts.findIndex((text) => text.trim() === `${RATER} (demo)`)
  expect(texts[at - 1]!.trim()).toBe('Rating')
  // Each of the top 5 has the judge's grade, in the scale's words.
  for (let rank = 1; rank <= 5; rank++) {
    await expect(grid.getByRole('row').nth(rank).getByRole('gridcell').nth(at)).toHaveText(/^[0-3] (Poor|Fair|Good|Perfect)$/)
  }
  await shots(page, 'judges-grid', grid)

  // The calibration in the Agreement part: against the set's other raters (the example's are rule-made, none a person).
  await showView(page, 'Evaluation')
  await evaluation(page).getByRole('tab', { name: 'Agreement' }).click()
  const agreement = evaluation(page).getByRole('tabpanel', { name: 'Agreement' })
  const calibration = agreement.getByRole('region', { name: `${RATER} against the set's other raters` })
  await expect(calibration).toContainText(`No person has graded this set: ${RATER} is measured against its other raters, rule: as written, rule: lenient, rule: strict.`)
  const figures = calibration.getByRole('table', { name: `Calibration of ${RATER}` })
  await expect(figures.getByRole('row').filter({ hasText: 'Items both graded' })).toContainText(String(total))
  await expect(figures.getByRole('row').filter({ hasText: "Cohen's κ, quadratic" })).toHaveText(/0\.\d{3}$/)
  await expect(figures.getByRole('row').filter({ hasText: "Krippendorff's α, ordinal" })).toHaveText(/0\.\d{3}$/)
  // Named for whom it is measured against: the set's other raters, not people.
  await expect(calibration.getByRole('table', { name: `Other raters' grade (rows) against ${RATER}'s (columns)` })).toBeVisible()
  const differ = calibration.getByRole('table', { name: 'Where they differ most' })
  await expect(differ.getByRole('columnheader')).toHaveText(['Query', 'Item', 'Other raters', RATER, 'Actions'])
  await expect(differ.getByRole('row').nth(1)).toContainText('The demo judge')
  await shots(page, 'judges-calibration', calibration)

  // Production's top 5 judged too (the Judges part grades what Figures evaluates), so the judge's table compares
  // two sides it graded alike; what default's top 5 shares with it is already graded.
  await evaluation(page).getByRole('tab', { name: 'Figures' }).click()
  await evaluation(page).getByRole('combobox', { name: 'Evaluate with config' }).selectOption('production')
  await evaluation(page).getByRole('tab', { name: 'Judges' }).click()
  await expect(judges).toContainText("each query's top results on Demo, config production")
  await judges.getByRole('button', { name: 'Judge', exact: true }).click()
  // Until this run's end shows, the last run's is still there; the list's count grows only once this run has ended.
  const graded = async () => Number((await row.getByRole('cell').nth(3).textContent())!.replace(/,/g, ''))
  await expect.poll(graded).toBeGreaterThan(total)
  await expect(end).toHaveText(/^Done: \d+ graded, \d+ calls?, [\d,]+ tokens\.$/)
  const more = Number(/^Done: (\d+)/.exec((await end.textContent())!)![1])
  expect(more).toBeLessThan(total)
  await expect.poll(graded).toBe(total + more)

  // The experiment default vs production, then whether its verdict holds with the judge's grades.
  await showView(page, 'Experiments')
  const sides = experiments(page).getByRole('group', { name: 'Sides' })
  await sides.getByRole('combobox', { name: 'Side A config' }).selectOption('default')
  await sides.getByRole('combobox', { name: 'Side B config' }).selectOption('production')
  await experiments(page).getByRole('checkbox', { name: 'Per-step attribution' }).uncheck()
  await experiments(page).getByRole('button', { name: 'Run experiment' }).click()
  const verdict = experiments(page).getByRole('region', { name: 'Does the verdict hold?' })
  await verdict.getByRole('combobox', { name: 'Verdict with judge' }).selectOption({ label: `${RATER} (demo)` })
  const table = verdict.getByRole('table', { name: /^Δ and p against A with the people's grades, the judge's and both/ })
  await expect(table.getByRole('columnheader')).toHaveText(['Side', 'Metric', 'Other raters', RATER, 'Both', 'Verdict'])
  await expect(table.getByRole('row').filter({ hasText: 'nDCG@10' }).first()).toHaveText(/[+−]\d\.\d{3}.*(holds|sign changes|significance changes|sign and significance change)$/)
  await expect(verdict.getByRole('status').filter({ hasText: 'verdicts hold' })).toHaveText(/^\d+ of \d+ verdicts hold whichever grades are used\.$/)
  await expect(verdict).toContainText('No person has graded this set: "Other raters" are rule: as written, rule: lenient, rule: strict.')
  await shots(page, 'judges-verdict', verdict.getByRole('heading', { name: 'Does the verdict hold?' }))
})
