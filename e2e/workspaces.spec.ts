import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, launchApp, test } from './fixtures/app'
import { seriousViolations } from './fixtures/axe'
import { DESKTOP, LAPTOP, openApp, screenshotsBothSizes } from './fixtures/laptop'
import { draftKept } from './fixtures/draft'

/**
 * Workspaces in the window (browser host): the "Saved queries" list, saving a
 * query and the workspace (a download here), the session coming back after a
 * reload and a restart, a colleague opening the file on their own app (whose
 * demo listens on another port), the unsaved markers and the questions they
 * bring, and a file whose connection the app does not have.
 */

const panel = (page: Page) => page.getByRole('region', { name: 'Saved queries' })
const list = (page: Page) => panel(page).getByRole('list', { name: 'Queries in this workspace' })
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A saved query's button: its name, then its marker or where it runs. */
const queryName = (name: string) => new RegExp(`^${escaped(name)} (unsaved |on |Not connected)`)
const queryButton = (page: Page, name: string) => list(page).getByRole('button', { name: queryName(name) })
const queryItem = (page: Page, name: string) => list(page).getByRole('listitem').filter({ has: page.getByRole('button', { name: queryName(name) }) })
const heading = (page: Page) => panel(page).getByRole('heading')
const queryBox = (page: Page) => page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' })
const grid = (page: Page) => page.getByRole('grid', { name: 'Results' })
const summary = (page: Page) => page.getByText(/^Rows 1–\d+ of/)

async function expand(page: Page): Promise<void> {
  const toggle = panel(page).getByRole('button', { name: 'Saved queries' })
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
}

async function run(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible()
}

/** The names in the grid's rows, in order. */
async function gridNames(page: Page): Promise<string[]> {
  return grid(page).evaluate((table) => {
    const headers = [...table.querySelectorAll('[role=columnheader]')].map((cell) => cell.textContent?.trim() ?? '')
    const column = headers.indexOf('name')
    return [...table.querySelectorAll('[role=rowgroup]:last-child [role=row]')].map((row) => row.querySelectorAll('[role=gridcell]')[column]?.textContent?.trim() ?? '')
  })
}

/** Save query for a new query: the name dialog, filled in and confirmed. */
async function saveNewQuery(page: Page, name: string, suggested?: string): Promise<void> {
  await panel(page).getByRole('button', { name: 'Save query' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save query' })
  if (suggested !== undefined) await expect(dialog.getByRole('textbox', { name: 'Query name' })).toHaveValue(suggested)
  await dialog.getByRole('textbox', { name: 'Query name' }).fill(name)
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(queryButton(page, name)).toHaveAttribute('aria-current', 'true')
}

/** Open workspace → Open file… in Chromium's file picker. */
async function openFile(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser')
  await panel(page).getByRole('button', { name: 'Open workspace' }).click()
  await page.getByRole('menuitem', { name: 'Open file…' }).click()
  await (await chooser).setFiles(path)
}

const madrid = (query = 'madrid') => ({
  workspace: 'world',
  api: 'places',
  steps: [{ endpoint: 'search', parameters: { query } }],
  responseType: 'results',
  options: { count: 10 },
})

test.beforeEach(async ({ app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
})

test('a faceted query saved, downloaded in the workspace, back after a reload, and the same rows on a colleague\'s app', async ({ page, app, browser }, testInfo) => {
  test.setTimeout(240_000)
  await openApp(page, app, DESKTOP)
  await expect(heading(page)).toHaveText('Untitled workspace')
  await queryBox(page).fill('san')
  await run(page)
  await expect(summary(page)).toHaveText('Rows 1–10 of 5,628')
  await page.getByRole('group', { name: 'country' }).getByRole('checkbox', { name: 'Spain' }).check()
  await expect(page.getByRole('group', { name: 'Step 2' }).getByRole('textbox', { name: 'value' })).toHaveValue('1("ES")')
  await expect(summary(page)).not.toHaveText('Rows 1–10 of 5,628')
  const names = await gridNames(page)
  expect(names.length).toBeGreaterThan(0)

  await expand(page)
  await saveNewQuery(page, 'Big Spanish cities', 'San')
  await expect(heading(page)).toHaveText(/Untitled workspace\s*unsaved/)
  await expect(queryItem(page, 'Big Spanish cities')).toContainText('on Demo')

  // Never saved: a name is asked first, and the download and the workspace take it.
  const downloading = page.waitForEvent('download')
  await panel(page).getByRole('button', { name: 'Save workspace' }).click()
  const naming = page.getByRole('dialog', { name: 'Save workspace' })
  await naming.getByRole('textbox', { name: 'Workspace name' }).fill('Spanish cities')
  await naming.getByRole('button', { name: 'Save', exact: true }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('Spanish cities.qxw.json')
  const saved = testInfo.outputPath('saved.qxw.json')
  await download.saveAs(saved)
  await expect(page.getByRole('status').filter({ hasText: 'Saved as a download: Spanish cities.qxw.json' })).toBeVisible()
  await expect(heading(page)).toHaveText('Spanish cities')
  const file = JSON.parse(readFileSync(saved, 'utf8'))
  expect(file.format).toBe('query-explorer-workspace')
  expect(file.queries).toHaveLength(1)
  expect(file.queries[0].name).toBe('Big Spanish cities')
  expect(file.queries[0].request.steps).toEqual([
    { endpoint: 'search', parameters: { query: 'san' } },
    { endpoint: 'country:FILTER', parameters: { value: '1("ES")' } },
  ])
  expect(file.connections[0]).toMatchObject({ name: 'Demo', workspace: 'world', api: 'places' })
  expect(JSON.stringify(file)).not.toMatch(/secret|token/i)

  // A reload: the workspace, the query chosen and the chain are back, and nothing ran.
  await draftKept(app, (draft) => draft?.savedQuery === 'Big Spanish cities')
  await page.reload()
  await expect(heading(page)).toHaveText('Spanish cities')
  await expect(queryButton(page, 'Big Spanish cities')).toHaveAttribute('aria-current', 'true')
  await expect(queryBox(page)).toHaveValue('san')
  await expect(page.getByRole('group', { name: 'Step 2' }).getByRole('textbox', { name: 'value' })).toHaveValue('1("ES")')
  await expect(queryItem(page, 'Big Spanish cities')).not.toContainText('unsaved')
  // The query is back and ready: the page says to run it, not to build one.
  await expect(page.getByText('“Big Spanish cities” is ready to run.')).toBeVisible()
  await expect(page.getByText('Build a query and press Run.')).toHaveCount(0)
  await screenshotsBothSizes(page, 'saved-queries')

  // A colleague: another app, another data folder, its demo on another port. The file's Demo runs on theirs.
  const shared = testInfo.outputPath('spanish-cities.qxw.json')
  copyFileSync(saved, shared)
  const colleague = await launchApp([], 'ws-colleague')
  const theirs = await browser.newPage()
  try {
    expect(colleague.origin).not.toBe(app.origin)
    await openApp(theirs, colleague, DESKTOP)
    await openFile(theirs, shared)
    await expect(heading(theirs)).toHaveText('spanish-cities')
    await expect(theirs.getByRole('dialog')).toHaveCount(0)
    await queryButton(theirs, 'Big Spanish cities').click()
    await expect(theirs.getByRole('status').filter({ hasText: /Runs on Demo/ })).toBeVisible()
    await expect(theirs.getByRole('group', { name: 'Step 2' }).getByRole('textbox', { name: 'value' })).toHaveValue('1("ES")')
    await expect(theirs.getByText('“Big Spanish cities” is ready to run.')).toBeVisible()
    await run(theirs)
    expect(await gridNames(theirs)).toEqual(names)
  } finally {
    await theirs.close()
    await colleague.close()
  }
})

test('a restart on the same data folder gives back the open workspace and the unsaved draft', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qe-ws-restart-'))
  let host = await launchApp([], 'ws-restart', { dataDir })
  // Leaving a page with unsaved workspace changes asks first (beforeunload); here the answer is yes.
  page.on('dialog', (dialog) => void dialog.accept())
  try {
    await openApp(page, host, LAPTOP)
    await expand(page)
    await queryBox(page).fill('madrid')
    await saveNewQuery(page, 'Madrid', 'Madrid')
    await queryBox(page).fill('madrid spain')
    await expect(queryItem(page, 'Madrid')).toContainText('unsaved')
    await draftKept(host, (draft) => JSON.stringify(draft?.request.steps) === JSON.stringify(madrid('madrid spain').steps))
    await host.close()

    host = await launchApp([], 'ws-restart', { dataDir })
    await openApp(page, host, LAPTOP)
    await expect(heading(page)).toHaveText(/Untitled workspace\s*unsaved/)
    await expect(queryBox(page)).toHaveValue('madrid spain')
    await expect(page.getByText('“Madrid” is ready to run.')).toBeVisible()
    await expect(page.getByText('Fill in the search step', { exact: false })).toHaveCount(0)
    await expand(page)
    await expect(queryButton(page, 'Madrid')).toHaveAttribute('aria-current', 'true')
    await expect(queryItem(page, 'Madrid')).toContainText('unsaved')
  } finally {
    await host.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
})

test('the unsaved marker follows edits, and switching or leaving with changes asks first', async ({ page, app }) => {
  for (const [name, text] of [['Paris', 'paris'], ['Berlin', 'berlin']] as const) {
    const saved = await app.invoke('workspace:save-query', { name, connectionId: 'demo', request: madrid(text) })
    expect(saved.ok).toBe(true)
  }
  await openApp(page, app, LAPTOP)
  await expand(page)
  await queryButton(page, 'Paris').click()
  await expect(queryBox(page)).toHaveValue('paris')
  await expect(queryItem(page, 'Paris')).not.toContainText('unsaved')

  await queryBox(page).fill('paris texas')
  await expect(queryItem(page, 'Paris')).toContainText('unsaved')
  // Back to what was saved: not unsaved any more.
  await queryBox(page).fill('paris')
  await expect(queryItem(page, 'Paris')).not.toContainText('unsaved')
  await queryBox(page).fill('paris texas')

  await queryButton(page, 'Berlin').click()
  const discard = page.getByRole('dialog', { name: 'Discard changes to “Paris”?' })
  await expect(discard).toBeVisible()
  await screenshotsBothSizes(page, 'saved-queries-discard')
  await discard.getByRole('button', { name: 'Cancel' }).click()
  await expect(discard).toBeHidden()
  await expect(queryBox(page)).toHaveValue('paris texas')
  await expect(queryButton(page, 'Paris')).toHaveAttribute('aria-current', 'true')

  await queryButton(page, 'Berlin').click()
  await discard.getByRole('button', { name: 'Discard' }).click()
  await expect(queryBox(page)).toHaveValue('berlin')
  await expect(queryButton(page, 'Berlin')).toHaveAttribute('aria-current', 'true')
  expect(((await app.invoke('workspace:current', {})).data as { workspace: { queries: { name: string; request: { steps: { parameters: { query: string } }[] } }[] } }).workspace.queries[0]!.request.steps[0]!.parameters.query).toBe('paris')

  // Save query from the question keeps the change, then switches.
  await queryBox(page).fill('berlin wall')
  await queryButton(page, 'Paris').click()
  await page.getByRole('dialog', { name: 'Discard changes to “Berlin”?' }).getByRole('button', { name: 'Save query' }).click()
  await expect(queryBox(page)).toHaveValue('paris')
  await queryButton(page, 'Berlin').click()
  await expect(queryBox(page)).toHaveValue('berlin wall')

  // Save query on a saved query updates it without asking a name.
  await queryBox(page).fill('berlin')
  await panel(page).getByRole('button', { name: 'Save query' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(queryItem(page, 'Berlin')).not.toContainText('unsaved')

  // New workspace with unsaved changes asks to save them first; Cancel keeps everything.
  await expect(heading(page)).toHaveText(/unsaved/)
  await panel(page).getByRole('button', { name: 'New workspace' }).click()
  const keep = page.getByRole('dialog', { name: 'Save changes to “Untitled workspace”?' })
  await expect(keep.getByRole('button', { name: 'Save workspace' })).toBeVisible()
  await keep.getByRole('button', { name: 'Cancel' }).click()
  await expect(list(page).getByRole('listitem')).toHaveCount(2)

  // A reload with unsaved workspace changes is a beforeunload question (the session is kept either way).
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type())
      void dialog.accept()
    }),
  )
  await page.reload()
  expect(await asked).toBe('beforeunload')
  await expect(list(page).getByRole('listitem')).toHaveCount(2)

  // Discard: a new, empty workspace; the editor keeps its query.
  await panel(page).getByRole('button', { name: 'New workspace' }).click()
  await keep.getByRole('button', { name: 'Discard' }).click()
  await expect(heading(page)).toHaveText('Untitled workspace')
  await expect(panel(page).getByText('No saved queries yet')).toBeVisible()
  await expect(queryBox(page)).toHaveValue('berlin')
})

test('Rename, Duplicate and Delete a saved query by name; a taken name is refused in the dialog', async ({ page, app }) => {
  await app.invoke('workspace:save-query', { name: 'Madrid', connectionId: 'demo', request: madrid() })
  await app.invoke('workspace:save-query', { name: 'Lisbon', connectionId: 'demo', request: madrid('lisbon') })
  await openApp(page, app, DESKTOP)
  await expand(page)

  await queryItem(page, 'Madrid').getByRole('button', { name: 'Rename' }).click()
  const rename = page.getByRole('dialog', { name: 'Rename “Madrid”' })
  await rename.getByRole('textbox', { name: 'Query name' }).fill('Lisbon')
  await rename.getByRole('button', { name: 'Rename', exact: true }).click()
  await expect(rename.getByRole('alert')).toHaveText(/A saved query named "Lisbon" exists/)
  await screenshotsBothSizes(page, 'saved-queries-name-taken')
  await rename.getByRole('textbox', { name: 'Query name' }).fill('Madrid centre')
  await rename.getByRole('button', { name: 'Rename', exact: true }).click()
  await expect(rename).toBeHidden()
  // The screenshots left the window at the laptop's size, where the list starts folded.
  await expand(page)
  await expect(queryButton(page, 'Madrid centre')).toBeVisible()
  await expect(queryButton(page, 'Madrid')).toHaveCount(0)

  await queryItem(page, 'Madrid centre').getByRole('button', { name: 'Duplicate' }).click()
  await expect(queryButton(page, 'Madrid centre (copy)')).toBeVisible()
  await expect(list(page).getByRole('listitem')).toHaveCount(3)

  await queryItem(page, 'Lisbon').getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete “Lisbon”?' })
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(confirm).toBeHidden()
  await expect(list(page).getByRole('listitem')).toHaveCount(3)
  await queryItem(page, 'Lisbon').getByRole('button', { name: 'Delete' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(queryButton(page, 'Lisbon')).toHaveCount(0)
  await expect(list(page).getByRole('listitem')).toHaveCount(2)

  // A new query under a taken name: main's message, and Replace saves over it.
  await queryBox(page).fill('porto')
  await panel(page).getByRole('button', { name: 'Save query' }).click()
  const name = page.getByRole('dialog', { name: 'Save query' })
  await expect(name.getByRole('textbox', { name: 'Query name' })).toHaveValue('Porto')
  await screenshotsBothSizes(page, 'saved-queries-name')
  await name.getByRole('textbox', { name: 'Query name' }).fill('Madrid centre')
  await name.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(name.getByRole('alert')).toHaveText(/A saved query named "Madrid centre" exists/)
  await name.getByRole('button', { name: 'Replace' }).click()
  await expect(name).toBeHidden()
  const queries = ((await app.invoke('workspace:current', {})).data as { workspace: { queries: { name: string; request: { steps: { parameters: { query: string } }[] } }[] } }).workspace.queries
  expect(queries.map((q) => q.name)).toEqual(['Madrid centre', 'Madrid centre (copy)'])
  expect(queries[0]!.request.steps[0]!.parameters.query).toBe('porto')

  // Save as new query: the edited query goes beside the one it started from, which stays as saved.
  await expect(queryButton(page, 'Madrid centre')).toHaveAttribute('aria-current', 'true')
  await queryBox(page).fill('porto norte')
  await panel(page).getByRole('button', { name: 'Save as new query…' }).click()
  const asNew = page.getByRole('dialog', { name: 'Save as new query' })
  await asNew.getByRole('textbox', { name: 'Query name' }).fill('Porto north')
  await asNew.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(queryButton(page, 'Porto north')).toHaveAttribute('aria-current', 'true')
  const three = ((await app.invoke('workspace:current', {})).data as { workspace: { queries: { name: string; request: { steps: { parameters: { query: string } }[] } }[] } }).workspace.queries
  expect(three.map((q) => [q.name, q.request.steps[0]!.parameters.query])).toEqual([
    ['Madrid centre', 'porto'],
    ['Madrid centre (copy)', 'madrid'],
    ['Porto north', 'porto norte'],
  ])
})

test('a file whose connections the app does not have: one created from the file, one mapped onto Demo, which runs', async ({ page, app }, testInfo) => {
  const path = testInfo.outputPath('colleague.qxw.json')
  const elsewhere = { authUrl: 'http://127.0.0.1:9/other/auth', queryUrl: 'http://127.0.0.1:9/other/query', workspace: 'world', api: 'places' }
  writeFileSync(
    path,
    JSON.stringify({
      format: 'query-explorer-workspace',
      version: 1,
      connections: [
        { id: 'staging', name: 'Team staging', ...elsewhere, clientId: 'team' },
        { id: 'theirs', name: 'Their places', ...elsewhere, clientId: 'someone-else' },
      ],
      queries: [
        { name: 'Staging Paris', connection: 'staging', notes: '', request: madrid('paris') },
        { name: 'Paris elsewhere', connection: 'theirs', notes: 'on their service', request: madrid('paris') },
      ],
    }),
  )
  await openApp(page, app, LAPTOP)
  const before = (await app.invoke('connections:list', {})).data as { id: string }[]
  await openFile(page, path)
  const dialog = page.getByRole('dialog', { name: "Connect the workspace's connections" })
  await expect(dialog).toContainText('Connection 1 of 2')
  await expect(dialog).toContainText('Team staging')
  await expect(dialog).toContainText('http://127.0.0.1:9/other/query')
  await screenshotsBothSizes(page, 'saved-queries-binding')
  // Not now: the queries say they are not connected, and choosing one asks again, for its connection only.
  await dialog.getByRole('button', { name: 'Not now' }).click()
  await expect(dialog).toBeHidden()
  await expand(page)
  await expect(queryItem(page, 'Staging Paris')).toContainText('Not connected: Team staging')
  await queryButton(page, 'Staging Paris').click()
  await expect(dialog).toContainText('Team staging')
  await expect(dialog).not.toContainText('of 2')

  // Created from the file: the secret typed goes to the keychain, never to the page or a file.
  const create = dialog.getByRole('group', { name: 'Create connection' })
  await create.getByLabel('Client secret').fill('team-secret-123')
  await create.getByRole('button', { name: 'Create connection' }).click()
  await expect(dialog).toBeHidden()
  const after = (await app.invoke('connections:list', {})).data as { id: string; name: string; hasSecret: boolean }[]
  const created = after.find((c) => !before.some((b) => b.id === c.id))!
  try {
    expect(created).toMatchObject({ name: 'Team staging', hasSecret: true })
    expect(JSON.stringify(await app.invoke('workspace:current', {}))).not.toContain('team-secret-123')
    // The query is loaded on its new connection (whose service is not there: nothing runs, so nothing fails yet).
    await expect(page.getByRole('combobox', { name: 'Connection' })).toHaveValue(created.id)
    await expect(queryButton(page, 'Staging Paris')).toHaveAttribute('aria-current', 'true')
    await expect(queryItem(page, 'Staging Paris')).toContainText('on Team staging')

    await queryButton(page, 'Paris elsewhere').click()
    const existing = dialog.getByRole('group', { name: 'Use an existing connection' })
    await existing.getByRole('combobox', { name: 'Connection' }).selectOption({ label: 'Demo' })
    await existing.getByRole('button', { name: 'Use connection' }).click()
    await expect(dialog).toBeHidden()
    await expect(queryItem(page, 'Paris elsewhere')).toContainText('on Demo')
    await expect(page.getByRole('combobox', { name: 'Connection' })).toHaveValue('demo')
    await expect(queryBox(page)).toHaveValue('paris')
    await run(page)
    expect((await gridNames(page))[0]).toBe('Paris')
  } finally {
    await app.invoke('connections:delete', { id: created.id })
  }
})

test('a corrupt or too large file is refused with a sentence, and the open workspace stays', async ({ page, app }, testInfo) => {
  await app.invoke('workspace:save-query', { name: 'Madrid', connectionId: 'demo', request: madrid() })
  await openApp(page, app, LAPTOP)
  await expand(page)
  page.on('dialog', (dialog) => void dialog.accept())

  const broken = testInfo.outputPath('broken.qxw.json')
  writeFileSync(broken, '{"format": "query-explorer-workspace", "version": 1, "queries": [')
  // Unsaved changes are asked about first; Discard goes on to the file picker.
  await panel(page).getByRole('button', { name: 'Open workspace' }).click()
  await page.getByRole('menuitem', { name: 'Open file…' }).click()
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('dialog', { name: 'Save changes to “Untitled workspace”?' }).getByRole('button', { name: 'Discard' }).click()
  await (await chooser).setFiles(broken)
  await expect(page.getByRole('alert').filter({ hasText: '"broken.qxw.json" is not valid JSON' })).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: 'the open one is unchanged' })).toBeVisible()
  await expect(queryButton(page, 'Madrid')).toBeVisible()

  // The workspace is as it was, unsaved changes included: opening again asks again.
  // Over the workspace file's own bound (32 MiB): refused by the upload route before a byte is sent, in words.
  const large = testInfo.outputPath('large.qxw.json')
  writeFileSync(large, '')
  truncateSync(large, 32 * 1024 * 1024 + 1)
  await panel(page).getByRole('button', { name: 'Open workspace' }).click()
  await page.getByRole('menuitem', { name: 'Open file…' }).click()
  const again = page.waitForEvent('filechooser')
  await page.getByRole('dialog', { name: 'Save changes to “Untitled workspace”?' }).getByRole('button', { name: 'Discard' }).click()
  await (await again).setFiles(large)
  await expect(page.getByRole('alert').filter({ hasText: '"large.qxw.json" holds 33,554,433 bytes (32.0 MiB); a workspace file may hold at most 32.0 MiB' })).toBeVisible()
  await expect(queryButton(page, 'Madrid')).toBeVisible()
})

test('the recent workspaces are in the Open menu and reopen the copy kept', async ({ page, app }, testInfo) => {
  const path = testInfo.outputPath('recent-cities.qxw.json')
  writeFileSync(path, readFileSync('examples/big-spanish-cities.qxw.json'))
  await openApp(page, app, DESKTOP)
  await openFile(page, path)
  await expect(heading(page)).toHaveText('recent-cities')
  await panel(page).getByRole('button', { name: 'New workspace' }).click()
  await expect(heading(page)).toHaveText('Untitled workspace')

  await panel(page).getByRole('button', { name: 'Open workspace' }).click()
  const recent = page.getByRole('menuitem', { name: /^recent-cities/ })
  await expect(recent).toContainText('copy')
  await recent.click()
  await expect(heading(page)).toHaveText('recent-cities')
  await expect(queryButton(page, 'Big Spanish cities')).toBeVisible()
})

test('Ctrl+S saves the workspace, as a download in the browser, and never the page; an untitled one is named first', async ({ page, app }) => {
  await app.invoke('workspace:save-query', { name: 'Madrid', connectionId: 'demo', request: madrid() })
  await openApp(page, app, LAPTOP)
  await expect(heading(page)).toHaveText(/Untitled workspace\s*unsaved/)
  await queryBox(page).click()
  let downloads = 0
  page.on('download', () => void downloads++)
  await page.keyboard.press('Control+s')
  // Never saved: the name comes first, and nothing is downloaded as "Untitled workspace".
  const naming = page.getByRole('dialog', { name: 'Save workspace' })
  const name = naming.getByRole('textbox', { name: 'Workspace name' })
  await expect(name).toBeFocused()
  await naming.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(naming.getByRole('alert')).toHaveText('Type a name for the workspace.')
  await name.fill('madrid/spain')
  await naming.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(naming.getByRole('alert')).toHaveText('Workspace name: a name cannot hold / or \\.')
  expect(downloads).toBe(0)
  await name.fill('Madrid queries')
  const downloading = page.waitForEvent('download')
  await page.keyboard.press('Enter')
  expect((await downloading).suggestedFilename()).toBe('Madrid queries.qxw.json')
  await expect(naming).toBeHidden()
  await expect(heading(page)).toHaveText('Madrid queries')
  // Why it is a download is said with the first save.
  await expect(page.getByRole('status').filter({ hasText: 'Saved as a download' })).toContainText('A page cannot write to the file you opened')

  // Named now: Ctrl+S downloads again under that name without asking.
  await queryBox(page).click()
  const again = page.waitForEvent('download')
  await page.keyboard.press('Control+s')
  expect((await again).suggestedFilename()).toBe('Madrid queries.qxw.json')
  await expect(naming).toHaveCount(0)
})


test('axe: nothing serious in the list (a query unsaved, the workspace unsaved), the Open menu, the name and binding dialogs, light and dark', async ({ page, app }, testInfo) => {
  await app.invoke('workspace:save-query', { name: 'Madrid', connectionId: 'demo', request: madrid() })
  await openApp(page, app, DESKTOP)
  await queryButton(page, 'Madrid').click()
  await queryBox(page).fill('madrid norte')
  await expect(queryItem(page, 'Madrid')).toContainText('unsaved')
  const found: string[] = []
  const scan = async (what: string, include: string) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      for (const line of await seriousViolations(page, include)) found.push(`${what}, ${colorScheme}: ${line}`)
    }
    await page.emulateMedia({ colorScheme: 'light' })
  }
  await scan('list', 'section[aria-label="Saved queries"]')
  await panel(page).getByRole('button', { name: 'Open workspace' }).click()
  await expect(page.getByRole('menuitem', { name: 'Open file…' })).toBeFocused()
  await scan('open menu', '[role=menu]')
  await page.keyboard.press('Escape')
  await expect(panel(page).getByRole('button', { name: 'Open workspace' })).toBeFocused()

  await panel(page).getByRole('button', { name: 'Save as new query…' }).click()
  const name = page.getByRole('dialog', { name: 'Save as new query' })
  await name.getByRole('textbox', { name: 'Query name' }).fill('Madrid')
  await name.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(name.getByRole('alert')).toBeVisible()
  await scan('name dialog', 'dialog')
  await name.getByRole('button', { name: 'Cancel' }).click()

  const path = testInfo.outputPath('unknown.qxw.json')
  const connection = { id: 'x', name: 'Elsewhere', authUrl: 'http://127.0.0.1:9/a', queryUrl: 'http://127.0.0.1:9/q', workspace: 'world', api: 'places', clientId: 'x' }
  writeFileSync(path, JSON.stringify({ format: 'query-explorer-workspace', version: 1, connections: [connection], queries: [{ name: 'Q', connection: 'x', request: madrid() }] }))
  page.on('dialog', (dialog) => void dialog.accept())
  await panel(page).getByRole('button', { name: 'Open workspace' }).click()
  await page.getByRole('menuitem', { name: 'Open file…' }).click()
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('dialog', { name: /^Save changes to/ }).getByRole('button', { name: 'Discard' }).click()
  await (await chooser).setFiles(path)
  await expect(page.getByRole('dialog', { name: "Connect the workspace's connections" })).toBeVisible()
  await scan('binding dialog', 'dialog')
  expect(found).toEqual([])
})
