import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { parseWorkspace, serializeWorkspace, type Workspace } from '../src/shared/workspace/workspace-file'
import { isolatedGit } from '../test/fixtures/isolated-git'
import { expect, launchApp, test, type LaunchedApp } from './fixtures/app'
import { DESKTOP, openApp } from './fixtures/laptop'
import { showView } from './fixtures/workbench'

/**
 * Two raters, two browser sessions, one git repository (issue 35): a set of
 * three queries with no judgment is committed on main; alice and bob each
 * open the file in an app of their own (own data folder, so each is asked
 * their name once), rate the first two results of "paris" in the grid, save
 * over the file and commit on a branch of their own. `git merge`, with the
 * driver `merge-workspace --install` set up, merges the two files without a
 * conflict, both raters' grades kept. The merged file, opened in a third app:
 * the Agreement part shows the pair, the item they differ on is settled by
 * keyboard, and the query's nDCG@10 moves from the mean of the two grades to
 * the settled grade, by figures worked out here by hand; saved, the settled
 * grade is a line of the file beside the raters'.
 */

const FILE = 'team.qxw.json'
const SET = 'World cities (two raters)'
const QUERY = 'paris'
/** The grades each rater gives the first and the second result of "paris": 3 apart on the first, agreed on the second. */
const ALICE = [3, 2] as const
const BOB = [0, 2] as const
/** The grade the first result is settled at. */
const SETTLED = 1

const view = (page: Page) => page.getByRole('region', { name: 'Evaluation' })
const saved = (page: Page) => page.getByRole('region', { name: 'Saved queries' })
const queryRow = (page: Page, text: string) =>
  view(page)
    .getByRole('table', { name: /^Each query's figures/ })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader').filter({ hasText: new RegExp(`^${text} `) }) })

/** The example's set cut to its first three queries, with no judgment and no rater, written by the app's own writer. */
function teamWorkspace(): string {
  const parsed = parseWorkspace(readFileSync('examples/world.qxw.json', 'utf8'), 'world.qxw.json')
  if (!parsed.ok) throw new Error(parsed.message)
  const example = parsed.workspace
  const source = example.sets![0]!
  const template = example.queries.filter((query) => query.name === source.query)
  const workspace: Workspace = {
    ...example,
    queries: template,
    tests: [],
    sets: [{ name: SET, query: source.query, queries: source.queries.slice(0, 3), judgments: [] }],
  }
  return serializeWorkspace(workspace)
}

/**
 * nDCG@10 as docs/METRICS.md defines it, for a ranking whose judged results are the first ones: exponential gain
 * (2^g − 1), discount log2(rank + 1), the ideal being the same grades sorted (nothing else of the query is judged).
 */
function ndcg(grades: number[]): number {
  const dcg = (list: number[]) => list.slice(0, 10).reduce((sum, grade, index) => sum + (2 ** grade - 1) / Math.log2(index + 2), 0)
  return dcg(grades) / dcg([...grades].sort((a, b) => b - a))
}

/** Each rater's grades in a workspace file's one set, as "query item rater grade" lines. */
function gradesIn(text: string): string[] {
  const parsed = parseWorkspace(text, FILE)
  if (!parsed.ok) throw new Error(parsed.message)
  return parsed.workspace.sets![0]!.judgments.map(({ query, item, rater, grade }) => `${query} ${item} ${rater} ${grade}`).sort()
}

/** Open workspace → Open file… in Chromium's file picker: the app reads the file from disk. */
async function openFile(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser')
  await saved(page).getByRole('button', { name: 'Open workspace' }).click()
  await page.getByRole('menuitem', { name: 'Open file…' }).click()
  await (await chooser).setFiles(path)
  await expect(saved(page).getByRole('heading')).toHaveText('team')
  await showView(page, 'Evaluation')
  await expect(view(page).getByRole('combobox', { name: 'Query set' })).toHaveValue(SET)
}

/** Evaluates the set on the demo with the default config and waits for that evaluation to be the one shown. */
async function evaluate(page: Page): Promise<void> {
  const kept = view(page).getByRole('combobox', { name: 'Kept evaluation' }).locator('option')
  const before = await kept.count()
  await view(page).getByRole('combobox', { name: 'Evaluate with config' }).selectOption('default')
  await view(page).getByRole('button', { name: 'Evaluate', exact: true }).click()
  await expect(kept).toHaveCount(before + 1)
  await expect(view(page).getByRole('button', { name: 'Evaluate', exact: true })).toBeEnabled()
  await expect(queryRow(page, QUERY)).toBeVisible()
}

/**
 * One rater's session: a browser context and an app of their own (a data folder of its own, so the name is
 * asked), the repository's file opened, the name given in the Judge dialog, the first two results of "paris"
 * rated in the grid, and the workspace saved over the same file (in a browser, Save is a download, kept where
 * the file was). The app and the context are stopped before this returns.
 */
async function rateAs(browser: Browser, path: string, rater: string, grades: readonly number[]): Promise<void> {
  let app: (LaunchedApp & { close: () => Promise<void> }) | undefined
  const context = await browser.newContext({ acceptDownloads: true })
  try {
    app = await launchApp([], `rater-${rater}`)
    const page = await context.newPage()
    await openApp(page, app, DESKTOP)
    await openFile(page, path)
    await expect(view(page)).toContainText('3 queries · 0 judgments')

    // A fresh data folder: the Judge dialog asks who rates, once, before anything is rated.
    await view(page).getByRole('button', { name: 'Judge', exact: true }).click()
    const judge = page.getByRole('dialog', { name: 'Judge results' })
    await judge.getByRole('textbox', { name: 'Your name as a rater' }).fill(rater)
    await judge.getByRole('button', { name: 'Rate as this name' }).click()
    await expect(judge).toContainText(`Rating as ${rater}`)
    await page.keyboard.press('Escape')
    await expect(judge).toBeHidden()

    // The grid, where each grade goes to a row whose item is known: the first two results, by keyboard.
    await evaluate(page)
    await queryRow(page, QUERY).getByRole('button', { name: `Open “${QUERY}” in the grid` }).click()
    await expect(page.getByRole('region', { name: 'Rating' })).toContainText(`in ${SET} as ${rater}`)
    const grid = page.getByRole('grid', { name: 'Results' })
    for (const [index, grade] of grades.entries()) {
      const cell = grid.getByRole('row').nth(index + 1).getByRole('gridcell').nth(1)
      await cell.click()
      await page.keyboard.press(String(grade))
      await expect(cell).toHaveText(new RegExp(`^${grade} `))
    }
    // Both ratings reached the app's workspace (the count is main's), so the save holds them.
    await showView(page, 'Evaluation')
    await expect(view(page)).toContainText(`3 queries · ${grades.length} judgments`)

    const downloading = page.waitForEvent('download')
    await saved(page).getByRole('button', { name: 'Save workspace' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe(FILE)
    await download.saveAs(path)
  } finally {
    await context.close()
    await app?.close()
  }
}

test('two raters in two browser sessions, merged by git with the driver; the pair, a disagreement settled, the figure follows', async ({ page, app, browser }) => {
  // Three apps, three evaluations and git: a hang guard for a busy machine, not a measure of speed.
  test.slow()
  const home = mkdtempSync(join(tmpdir(), 'qe-rater-merge-home-'))
  const repo = mkdtempSync(join(tmpdir(), 'qe-rater-merge-repo-'))
  try {
    const path = join(repo, FILE)
    const { run, ok } = isolatedGit(repo, home)
    ok('init', '-q', '-b', 'main')
    writeFileSync(path, teamWorkspace())
    ok('add', FILE)
    ok('commit', '-q', '-m', 'a set to rate')
    const installed = run(process.execPath, [resolve('bin/query-explorer.cjs'), 'merge-workspace', '--install', repo])
    expect(installed.status, installed.out).toBe(0)
    ok('add', '.gitattributes')
    ok('commit', '-q', '-m', 'workspace files merge by key')

    ok('checkout', '-q', '-b', 'alice')
    await rateAs(browser, path, 'alice', ALICE)
    const alice = gradesIn(readFileSync(path, 'utf8'))
    expect(alice).toHaveLength(2)
    ok('commit', '-q', '-am', 'alice rates')

    ok('checkout', '-q', 'main')
    ok('checkout', '-q', '-b', 'bob')
    await rateAs(browser, path, 'bob', BOB)
    const bob = gradesIn(readFileSync(path, 'utf8'))
    ok('commit', '-q', '-am', 'bob rates')

    // The two files as each saved it: the same two items of q01 (the same ranking), each under its rater.
    const items = (lines: string[], rater: string, grade: number) => lines.filter((line) => line.endsWith(` ${rater} ${grade}`)).map((line) => line.split(' ')[1])
    const first = items(alice, 'alice', ALICE[0])[0]!
    const second = items(alice, 'alice', ALICE[1])[0]!
    expect(alice).toEqual([`q01 ${first} alice ${ALICE[0]}`, `q01 ${second} alice ${ALICE[1]}`].sort())
    expect(bob).toEqual([`q01 ${first} bob ${BOB[0]}`, `q01 ${second} bob ${BOB[1]}`].sort())

    // git's merge runs the driver: no conflict, and the file holds both raters' grades.
    const merge = run('git', ['merge', '--no-edit', 'alice'])
    expect(merge.status, merge.out).toBe(0)
    expect(merge.out).not.toContain('CONFLICT')
    const merged = readFileSync(path, 'utf8')
    expect(merged).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m)
    expect(gradesIn(merged)).toEqual([...alice, ...bob].sort())
    expect(ok('status', '--porcelain')).toBe('')

    // The merged file in an app: its figure is the mean of the two raters' grades.
    await openApp(page, app, DESKTOP)
    await openFile(page, path)
    await expect(view(page)).toContainText('3 queries · 4 judgments')
    await evaluate(page)
    const mean = (a: number, b: number) => (a + b) / 2
    const before = ndcg([mean(ALICE[0], BOB[0]), mean(ALICE[1], BOB[1])])
    const ndcgCell = () => queryRow(page, QUERY).getByRole('cell').first()
    // The cell holds the figure, then the range judging the rest of the top 10 could take it to.
    const figureIs = (value: number) => new RegExp(`^${value.toFixed(3).replace('.', '\\.')}(\\s|$)`)
    await expect(ndcgCell()).toHaveText(figureIs(before))

    // The Agreement part: both raters, their pair over the two items, the item they differ on.
    await view(page).getByRole('tab', { name: 'Agreement' }).click()
    const panel = view(page).getByRole('tabpanel', { name: 'Agreement' })
    const raters = panel.getByRole('table', { name: 'Raters', exact: true })
    for (const name of ['alice', 'bob']) {
      await expect(raters.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) }).getByRole('cell').last()).toHaveText('2')
    }
    const pairs = panel.getByRole('table', { name: 'Pairs of raters' })
    await expect(pairs.getByRole('row')).toHaveCount(2)
    const pair = pairs.getByRole('row').nth(1)
    await expect(pair.getByRole('rowheader')).toHaveText('alice – bob')
    // Two items, agreed on one: 50 %; Cohen's kappa (1/2 − 1/4) / (1 − 1/4) = 1/3, chance being alice's ½ at 2 times bob's ½ at 2.
    await expect(pair.getByRole('cell').nth(0)).toHaveText('2')
    await expect(pair.getByRole('cell').nth(1)).toContainText('50')
    await expect(pair.getByRole('cell').nth(2)).toHaveText((1 / 3).toFixed(3))
    const disagreements = panel.getByRole('table', { name: 'Disagreements' })
    await expect(disagreements.getByRole('row')).toHaveCount(2)
    const row = disagreements.getByRole('row').nth(1)
    await expect(row).toContainText(first)
    await expect(row).toContainText(`alice ${ALICE[0]}`)
    await expect(row).toContainText(`bob ${BOB[0]}`)

    // Settled by keyboard: the adjudicated grade wins over the mean.
    const settle = row.getByRole('button', { name: `Settle ${first} for “${QUERY}”` })
    await settle.click()
    await expect(panel.getByRole('group', { name: `Settle ${first} for “${QUERY}”` }).getByRole('button', { name: '0 Poor' })).toBeFocused()
    await page.keyboard.press(String(SETTLED))
    await expect(row).toContainText(/settled: 1 \w+/)

    await view(page).getByRole('tab', { name: 'Figures' }).click()
    const after = ndcg([SETTLED, mean(ALICE[1], BOB[1])])
    expect(after.toFixed(3)).not.toBe(before.toFixed(3))
    await expect(ndcgCell()).toHaveText(figureIs(after))

    // Saved over the merged file, the settled grade is a line of its own beside the two raters', ready to commit.
    const downloading = page.waitForEvent('download')
    await saved(page).getByRole('button', { name: 'Save workspace' }).click()
    await (await downloading).saveAs(path)
    expect(gradesIn(readFileSync(path, 'utf8'))).toEqual([...alice, ...bob, `q01 ${first} adjudication ${SETTLED}`].sort())
  } finally {
    rmSync(repo, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
  }
})
