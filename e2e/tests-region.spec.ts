import { mkdirSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { seriousViolationsBothThemes } from './fixtures/axe'
import { DESKTOP, LAPTOP, openApp, screenshotsBothSizes } from './fixtures/laptop'
import { startSlowProxy } from './fixtures/slow-proxy'
import { showView, viewTab } from './fixtures/workbench'

/**
 * The Tests region (browser host, by accessible names): the example
 * workspace's 9 cases pass on each case's own connection; on the Demo with
 * config production exactly the two cases written to catch it fail, the
 * snapshot's with its rank diff; a case added from the editor's query passes,
 * fails once its expectations are edited, and goes when deleted; a slow run
 * shows its progress and stops on Cancel.
 */

const WORLD = 'examples/world.qxw.json'
const PRODUCTION_FAILS = ['Text ranking puts San Potito Sannitico first', 'Top 5 for "san" as recorded']

const savedPanel = (page: Page) => page.getByRole('region', { name: 'Saved queries' })
const region = (page: Page) => page.getByRole('region', { name: 'Tests' })
const heading = (page: Page) => region(page).getByRole('heading', { name: /^Tests \d+$/ })
const cases = (page: Page) => region(page).getByRole('list', { name: 'Test cases' })
/** A case's line: the list item holding its name (its failures are list items of their own, inside it). */
const caseItem = (page: Page, name: string) =>
  cases(page)
    .getByRole('listitem')
    .filter({ has: page.getByText(name, { exact: true }) })
    .filter({ has: page.getByRole('button', { name: 'Edit' }) })
const allCases = (page: Page) => cases(page).getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Edit' }) })
const summary = (page: Page) => region(page).getByRole('status')
const queryBox = (page: Page) => page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' })
const SHOTS = '/tmp/shots-testsui'

async function openWorld(page: Page): Promise<void> {
  const chooser = page.waitForEvent('filechooser')
  await savedPanel(page).getByRole('button', { name: 'Open workspace' }).click()
  await page.getByRole('menuitem', { name: 'Open file…' }).click()
  await (await chooser).setFiles(WORLD)
  await expect(savedPanel(page).getByRole('heading')).toHaveText('world')
  // The file's Demo is on another port here: it maps onto this app's Demo without a question.
  await expect(page.getByRole('dialog')).toHaveCount(0)
}

/** The Tests view, by its tab. */
async function unfold(page: Page): Promise<void> {
  await showView(page, 'Tests')
  await expect(region(page)).toBeVisible()
}

async function runTests(page: Page): Promise<void> {
  await region(page).getByRole('button', { name: 'Run tests', exact: true }).click()
  await expect(region(page).getByRole('button', { name: 'Run tests', exact: true })).toBeEnabled()
}

async function search(page: Page, text: string): Promise<void> {
  await queryBox(page).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(1)).toBeVisible()
}


/** Screenshots for looking at: the project's screens folder, and this helper's own. */
async function shots(page: Page, name: string): Promise<void> {
  await screenshotsBothSizes(page, name)
  mkdirSync(SHOTS, { recursive: true })
  for (const size of [LAPTOP, DESKTOP]) {
    await page.setViewportSize(size)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await page.screenshot({ path: `${SHOTS}/${name}-${size.width}-${colorScheme}.png` })
    }
  }
  await page.emulateMedia({ colorScheme: null })
}

test.beforeEach(async ({ app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
})

test('the example workspace: 9 cases pass; on config production exactly the two production cases fail, with expected vs actual and a rank diff', async ({ page, app }) => {
  test.setTimeout(240_000)
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  await search(page, 'san')
  // The results come first: the Tests view is a tab away, and says how many cases there are.
  await expect(region(page)).toHaveCount(0)
  await unfold(page)
  await expect(heading(page)).toHaveText(/Tests\s*9/)
  await expect(allCases(page)).toHaveCount(9)
  await expect(caseItem(page, '"san" finds thousands')).toContainText('runs San, default ranking')
  await expect(caseItem(page, 'Paris, France, comes first')).toContainText('runs own query “paris”')
  await expect(caseItem(page, 'Paris, France, comes first')).toContainText('not run')

  // Each case's own connection: the file's Demo, bound to this app's.
  await expect(region(page).getByRole('combobox', { name: 'Run on' })).toHaveValue('')
  await runTests(page)
  await expect(summary(page)).toContainText('9 passed')
  await expect(summary(page)).toContainText("on each case's own connection")
  for (const name of PRODUCTION_FAILS) await expect(caseItem(page, name)).toContainText('✓ passed')
  await expect(allCases(page).filter({ hasText: '✓ passed' })).toHaveCount(9)
  await expect(caseItem(page, 'Berlin, Germany, is in the top 1')).toContainText(/\d+ ms/)

  // The Demo with config production: the Config picker is there from the start, and choosing it runs the cases on their Demo.
  await expect(region(page).getByRole('combobox', { name: 'Target config', exact: true })).toBeVisible()
  await expect(region(page).getByRole('combobox', { name: 'Target config', exact: true }).getByRole('option', { name: 'production' })).toBeAttached()
  await region(page).getByRole('combobox', { name: 'Target config', exact: true }).selectOption('production')
  await expect(region(page).getByRole('combobox', { name: 'Run on' }).getByRole('option', { selected: true })).toHaveText('Demo')
  await runTests(page)
  await expect(summary(page)).toContainText('7 passed, 2 failed')
  await expect(summary(page)).toContainText('on Demo, config production')
  await expect(allCases(page).filter({ hasText: '✗ failed' })).toHaveCount(2)
  for (const name of PRODUCTION_FAILS) await expect(caseItem(page, name)).toContainText('✗ failed')

  const ranked = caseItem(page, PRODUCTION_FAILS[0]!)
  await expect(ranked.getByRole('list', { name: `Why “${PRODUCTION_FAILS[0]}” failed` })).toContainText('San Potito Sannitico (3167796) expected at rank 1 or better, found at rank 9')
  const snapshot = caseItem(page, PRODUCTION_FAILS[1]!)
  await expect(snapshot).toContainText(/snapshot of the top 5 \(RBO ≥ 0\.9\): expected RBO ≥ 0\.9, got RBO 0\.\d+, \d of 5 shared/)
  const diff = snapshot.getByRole('table', { name: 'Rank diff against the snapshot' })
  await expect(diff).toBeVisible()
  await expect(diff.getByRole('columnheader')).toHaveText(['Snapshot', 'Now', 'Move', 'Item'])
  // Sanaa leads on production and was nowhere in the default snapshot.
  await expect(diff.getByRole('row').filter({ hasText: 'Sanaa' })).toContainText(/–\s*1\s*new/)
  // San Potito Sannitico led the default snapshot and is out of production's top 5: named as the snapshot recorded it.
  await expect(diff.getByRole('row').filter({ hasText: '3167796' })).toContainText(/^\s*1\s*–\s*gone\s*San Potito Sannitico/)

  // The failures fold away and come back.
  await snapshot.getByRole('button', { name: 'Hide details' }).click()
  await expect(diff).toHaveCount(0)
  await snapshot.getByRole('button', { name: 'Show details' }).click()
  await expect(diff).toBeVisible()

  // The README's picture: both failures in view, no passing note over the bar.
  await page.emulateMedia({ colorScheme: 'light' })
  // All at once, in the page: a note that goes by itself between being listed and being clicked leaves nothing to wait for.
  await page.getByRole('button', { name: 'Dismiss' }).evaluateAll((buttons) => buttons.forEach((button) => button.click()))
  await expect(page.getByRole('button', { name: 'Dismiss' })).toHaveCount(0)
  await ranked.evaluate((item) => {
    const list = item.parentElement!
    list.scrollTop += item.getBoundingClientRect().top - list.getBoundingClientRect().top
  })
  mkdirSync('docs/screenshots', { recursive: true })
  await page.screenshot({ path: 'docs/screenshots/tests.png' })
  await shots(page, 'tests-failures')

  expect(await seriousViolationsBothThemes(page, 'Tests region with failures', '[aria-label="Tests"]')).toEqual([])
})

test('Add test from current query: the case appears and passes; edited to expect too much it fails with expected vs actual; Delete takes it out', async ({ page, app }) => {
  test.setTimeout(240_000)
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  await search(page, 'berlin')
  await expect(savedPanel(page).getByRole('heading')).toHaveText('world')
  await unfold(page)

  await region(page).getByRole('button', { name: 'Add test from current query' }).click()
  const added = caseItem(page, 'berlin')
  await expect(added).toBeVisible()
  await expect(added).toBeFocused()
  await expect(added).toContainText('runs own query “berlin”')
  await expect(allCases(page)).toHaveCount(10)
  await expect(page.getByRole('status').filter({ hasText: 'Added the test “berlin”' })).toBeVisible()
  // The workspace changed: its unsaved marker shows.
  await expect(savedPanel(page).getByRole('heading')).toHaveText(/world\s*unsaved/)

  await added.getByRole('button', { name: 'Run test' }).click()
  await expect(added).toContainText('✓ passed')
  await expect(summary(page)).toContainText('1 passed')

  // Edit: live problems name the field and the rule; a total no search reaches fails with expected vs actual.
  await added.getByRole('button', { name: 'Edit' }).click()
  const editor = page.getByRole('dialog', { name: 'Edit test “berlin”' })
  const json = editor.getByRole('textbox', { name: 'Expectations (JSON)' })
  await expect(json).toHaveValue(/"status": 200/)
  await expect(json).toHaveValue(/"snapshot"/)
  await json.fill('{"totalAtLeast": -1, "contians": []}')
  await expect(json).toHaveAttribute('aria-invalid', 'true')
  await expect(editor.getByRole('list', { name: 'Problems' })).toContainText('totalAtLeast: must be at least 0')
  await expect(editor.getByRole('list', { name: 'Problems' })).toContainText('contians: is not an expectation (known: status, messageStartsWith')
  await shots(page, 'tests-editor')
  expect(await seriousViolationsBothThemes(page, 'expectations editor', 'dialog')).toEqual([])
  await editor.getByRole('button', { name: 'Save' }).click()
  await expect(editor).toBeVisible()
  await json.fill('{"totalAtLeast": 1000000}')
  await expect(json).not.toHaveAttribute('aria-invalid', 'true')
  await editor.getByRole('textbox', { name: 'Name' }).fill('berlin, a million places')
  await editor.getByRole('button', { name: 'Save' }).click()
  await expect(editor).toBeHidden()
  const edited = caseItem(page, 'berlin, a million places')
  await expect(edited).toContainText('not run')
  await edited.getByRole('button', { name: 'Run test' }).click()
  await expect(edited).toContainText('✗ failed')
  await expect(edited.getByRole('list', { name: 'Why “berlin, a million places” failed' })).toContainText(/total ≥ 1,000,000: expected ≥ 1,000,000, got \d[\d,]*/)
  const file = ((await app.invoke('workspace:current', {})).data as { workspace: { tests: { name: string; expect: unknown }[] } }).workspace.tests
  expect(file.at(-1)).toEqual(expect.objectContaining({ name: 'berlin, a million places', expect: { totalAtLeast: 1000000 } }))

  // Update snapshot records a baseline and shows the run's result.
  await edited.getByRole('button', { name: 'Update snapshot' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Recorded the top 10 of “berlin, a million places” as its snapshot' })).toBeVisible()
  await expect(edited).toContainText('✗ failed')

  // Delete asks first; Cancel keeps it, Delete takes it out.
  await edited.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete “berlin, a million places”?' })
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(allCases(page)).toHaveCount(10)
  await edited.getByRole('button', { name: 'Delete' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(edited).toHaveCount(0)
  await expect(allCases(page)).toHaveCount(9)
})

test('Add test from current query with a saved query selected: the case runs that query and is named after it', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  await unfold(page)
  const saved = savedPanel(page).getByRole('list', { name: 'Queries in this workspace' })
  if (!(await saved.isVisible())) await savedPanel(page).getByRole('button', { name: 'Saved queries' }).click()
  await saved.getByRole('button', { name: /^San, default ranking on / }).click()
  await expect(queryBox(page)).toHaveValue('san')

  await region(page).getByRole('button', { name: 'Add test from current query' }).click()
  const added = caseItem(page, 'San, default ranking')
  await expect(added).toBeVisible()
  await expect(added).toContainText('runs San, default ranking')
  await expect(added).not.toContainText('own query')
  const file = ((await app.invoke('workspace:current', {})).data as { workspace: { tests: { name: string; query?: string; request?: unknown }[] } }).workspace.tests
  expect(file.at(-1)).toEqual(expect.objectContaining({ name: 'San, default ranking', query: 'San, default ranking' }))
  expect(file.at(-1)!.request).toBeUndefined()
  await added.getByRole('button', { name: 'Run test' }).click()
  await expect(added).toContainText('✓ passed')
})

test('a slow run shows its progress ("0 of 9") and stops on Cancel', async ({ page, app }) => {
  const demo = ((await app.invoke('connections:list', {})).data as { id: string; queryUrl: string; authUrl: string }[]).find((c) => c.id === 'demo')!
  // Every query (any path with an endpoint in it) is held until it is cancelled or the proxy closes; the API description passes at once.
  const proxy = await startSlowProxy(demo.queryUrl, { holds: /\/e\// })
  const saved = (await app.invoke('connections:save', { name: 'Slow link', authUrl: demo.authUrl, queryUrl: proxy.queryUrl, workspace: 'world', api: 'public', clientId: '' })).data as { id: string }
  try {
    await openApp(page, app, DESKTOP)
    await openWorld(page)
    await unfold(page)
    await region(page).getByRole('combobox', { name: 'Run on' }).selectOption({ label: 'Slow link' })
    await region(page).getByRole('combobox', { name: 'Target API', exact: true }).selectOption('public')
    await region(page).getByRole('button', { name: 'Run tests', exact: true }).click()
    const bar = region(page).getByRole('progressbar', { name: 'Test run progress' })
    await expect(bar).toBeVisible()
    await expect(bar).toHaveAttribute('aria-valuetext', '0 of 9 cases')
    await expect(region(page).getByText('0 of 9', { exact: true })).toBeVisible()
    await expect(region(page).getByRole('button', { name: 'Run tests', exact: true })).toBeDisabled()
    await expect.poll(() => proxy.held()).toBeGreaterThan(0)
    await expect(allCases(page).filter({ hasText: 'running…' })).toHaveCount(9)
    await shots(page, 'tests-running')
    await region(page).getByRole('button', { name: 'Cancel' }).click()
    await expect(bar).toHaveCount(0)
    await expect(summary(page)).toContainText('Cancelled: 0 passed, 0 failed, 9 not finished')
    await expect(caseItem(page, 'Paris, France, comes first')).toContainText('could not run')
    await expect.poll(() => proxy.closedEarly()).toBeGreaterThan(0)
  } finally {
    await app.invoke('connections:delete', { id: saved.id })
    await proxy.close()
  }
})

test('in a laptop window the Tests view shows the cases and how the run went; a workspace opened anew has not run yet', async ({ page, app }) => {
  await openApp(page, app, LAPTOP)
  await openWorld(page)
  // The tab says how many cases there are, and once run, how the run went (in words for a screen reader, its name stays "Tests").
  await expect(viewTab(page, 'Tests')).toHaveAccessibleDescription('9 cases')
  await unfold(page)
  await runTests(page)
  await expect(summary(page)).toContainText('9 passed')
  await expect(allCases(page).first()).toBeInViewport()
  await expect(viewTab(page, 'Tests')).toHaveAccessibleDescription('9 cases; last run 9 passed')
  await shots(page, 'tests-passed')
  await page.setViewportSize(LAPTOP)
  // A workspace opened anew has not run yet: the outcomes shown before were of the one it replaced.
  await openWorld(page)
  await expect(region(page).getByText('9 passed')).toHaveCount(0)
  await expect(viewTab(page, 'Tests')).toHaveAccessibleDescription('9 cases')
})
