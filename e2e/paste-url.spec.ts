import type { Page } from '@playwright/test'
import { expect, test, type LaunchedApp } from './fixtures/app'
import { draftKept, searchDraft } from './fixtures/draft'
import { openApp, screenshotsBothSizes } from './fixtures/laptop'

/**
 * A request URL from elsewhere (a colleague's, the demo on another port) is
 * read into the editor whatever its base, says where it came from, runs
 * nothing until Run, and then runs on the current connection only.
 */

const FOREIGN_BASE = 'http://127.0.0.1:1/query'
const urlBox = (page: Page) => page.getByRole('textbox', { name: 'Request URL' })
const queryBox = (page: Page) => page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' })
const grid = (page: Page) => page.getByRole('grid', { name: 'Results' })

async function demoQueryUrl(app: LaunchedApp): Promise<string> {
  const list = (await app.invoke('connections:list', {})).data as { id: string; queryUrl: string }[]
  return list.find((connection) => connection.id === 'demo')!.queryUrl
}

async function recordedUrls(app: LaunchedApp): Promise<string[]> {
  return ((await app.invoke('history:list', {})).data as { url: string }[]).map((entry) => entry.url)
}

async function paste(page: Page, url: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(url)})`)
  await urlBox(page).focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('ControlOrMeta+V')
}

test.beforeEach(async ({ app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
  await app.invoke('history:clear', {})
})

test('a URL made against another query URL loads its chain, says where it came from, and runs on the current connection', async ({ page, app }) => {
  await openApp(page, app)
  await paste(page, `${FOREIGN_BASE}/world/api/places/e/search/p/query/madrid/results?config=default&count=10`)

  await expect(queryBox(page)).toHaveValue('madrid')
  const note = page.getByRole('status').filter({ hasText: `Read from ${FOREIGN_BASE}` })
  await expect(note).toHaveText(`Read from ${FOREIGN_BASE} — it runs on the current connection, Demo. Press Run to send it.`)
  // The box now shows the chain on the current connection's query URL: that is where Run sends it.
  const demo = await demoQueryUrl(app)
  await expect(urlBox(page)).toHaveValue(`${demo}/world/api/places/e/search/p/query/madrid/results?config=default&count=10`)
  await expect(urlBox(page)).toHaveAttribute('aria-invalid', 'false')
  // Nothing runs until Run: once the pasted chain's draft has reached the main process, the page has done all the
  // paste led it to do, and no run is on its way (a run's history entry is written before its answer comes back).
  await draftKept(app, searchDraft('madrid'))
  await expect(page.getByRole('progressbar', { name: 'Running query' })).toHaveCount(0)
  expect(await recordedUrls(app)).toEqual([])
  await screenshotsBothSizes(page, 'paste-url-foreign')

  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(grid(page).getByRole('row').nth(1)).toContainText('Madrid')
  const sent = await recordedUrls(app)
  expect(sent.length).toBeGreaterThan(0)
  expect(sent.every((url) => url.startsWith(`${demo}/`))).toBe(true)
  expect(sent.some((url) => url.includes(':1/'))).toBe(false)
})

test('a URL for another workspace still loads and says which workspace it runs in', async ({ page, app }) => {
  await openApp(page, app)
  await paste(page, `${FOREIGN_BASE}/atlas/api/places/e/search/p/query/vienna/results`)
  await expect(queryBox(page)).toHaveValue('vienna')
  await expect(page.getByRole('status').filter({ hasText: 'workspace "atlas"' })).toContainText(
    'It was written for workspace "atlas"; it runs in "world", the workspace of Demo.',
  )
  await expect(urlBox(page)).toHaveValue(/\/world\/api\/places\/e\/search\/p\/query\/vienna\/results/)
  // Editing the chain makes the note about the pasted URL go.
  await queryBox(page).fill('wien')
  await expect(page.getByRole('status').filter({ hasText: 'workspace "atlas"' })).toHaveCount(0)
})

test('a URL the codec cannot read shows its message and leaves the chain as it was', async ({ page, app }) => {
  await openApp(page, app)
  await queryBox(page).fill('lisbon')
  await paste(page, `${FOREIGN_BASE}/nothing/here`)
  await expect(urlBox(page)).toHaveAccessibleDescription(/^No "\/<workspace>\/api\/<api>" found/)
  await expect(urlBox(page)).toHaveAttribute('aria-invalid', 'true')
  await expect(queryBox(page)).toHaveValue('lisbon')
  await expect(page.getByRole('status').filter({ hasText: 'Read from' })).toHaveCount(0)
})
