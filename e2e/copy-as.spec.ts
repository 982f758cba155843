import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, test } from './fixtures/app'
import { openApp, screenshotsBothSizes } from './fixtures/laptop'

/**
 * "Copy as" beside "Copy URL": a menu by role, the chosen text on the clipboard, a toast saying so, no secret;
 * for the Demo only, curl with the Demo's secret filled in, which runs as pasted.
 */

const run = promisify(execFile)
const DEMO_CURL = "curl, with the Demo's secret"

test('Copy as → curl puts a runnable token request and query on the clipboard, naming the secret variable only', async ({ page, app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
  await openApp(page, app)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  const url = await page.getByRole('textbox', { name: 'Request URL' }).inputValue()

  await page.getByRole('button', { name: 'Copy as' }).click()
  const menu = page.getByRole('menu', { name: 'Copy as' })
  await expect(menu.getByRole('menuitem')).toHaveText(['curl', DEMO_CURL, 'TypeScript', 'Python', 'Request URL'])
  await expect(menu.getByRole('menuitem', { name: 'curl', exact: true })).toBeFocused()
  await screenshotsBothSizes(page, 'copy-as-menu')

  await menu.getByRole('menuitem', { name: 'curl', exact: true }).click()
  await expect(menu).toBeHidden()
  await expect(page.getByText('Copied the request as curl.')).toBeVisible()
  const text = (await page.evaluate('navigator.clipboard.readText()')) as string
  expect(text).toContain('$QUERY_EXPLORER_CLIENT_SECRET')
  expect(text).toContain(`curl -s -H "Authorization: Bearer $TOKEN" '${url}'`)

  // By keyboard this time (the confirmation toast sits over the button's corner for a moment).
  await page.getByRole('button', { name: 'Copy as' }).focus()
  await page.keyboard.press('Enter')
  await page.keyboard.press('ArrowUp')
  await expect(menu.getByRole('menuitem', { name: 'Request URL' })).toBeFocused()
  await page.keyboard.press('Enter')
  // The clipboard is written asynchronously (it held the curl text until then).
  await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(url)

  await page.getByRole('button', { name: 'Copy as' }).focus()
  await page.keyboard.press('Enter')
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(page.getByRole('button', { name: 'Copy as' })).toBeFocused()
})

test("Copy as → curl, with the Demo's secret: runs as pasted, with nothing set, and gives the rows the grid shows", async ({ page, app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
  await openApp(page, app)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill('san')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  const grid = page.getByRole('grid', { name: 'Results' })
  await expect(grid.getByRole('row').nth(1)).toBeVisible()

  await page.getByRole('button', { name: 'Copy as' }).click()
  await page.getByRole('menu', { name: 'Copy as' }).getByRole('menuitem', { name: DEMO_CURL }).click()
  await expect(page.getByText(/^Copied the request as curl, with the Demo's secret: it runs as it is, until Query Explorer restarts/)).toBeVisible()
  const text = (await page.evaluate('navigator.clipboard.readText()')) as string
  expect(text).toContain("# The Demo's client secret, filled in: it changes every time Query Explorer starts")
  expect(text).not.toContain(':?Set')

  // Pasted into a shell with nothing set: the Demo's token, then the rows of the chain shown.
  const { stdout } = await run('bash', ['-c', text], { env: { PATH: process.env.PATH ?? '' }, timeout: 20_000 })
  const items = (JSON.parse(stdout) as { items: { rank: number; tuple: { attributes: { name: string } }[] }[] }).items
  expect(items.map((item) => item.rank)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
  await expect(grid).toContainText(items[0]!.tuple[0]!.attributes.name)
})

test("a connection of the user's own is never offered its secret in the text: no Demo's curl on its menu", async ({ page, app }) => {
  const copy = (await app.invoke('connections:duplicate', { connectionId: 'demo' })).data as { id: string }
  try {
    await app.invoke('connections:use', { connectionId: copy.id })
    await openApp(page, app)
    await page.getByRole('button', { name: 'Copy as' }).click()
    await expect(page.getByRole('menu', { name: 'Copy as' }).getByRole('menuitem')).toHaveText(['curl', 'TypeScript', 'Python', 'Request URL'])
  } finally {
    await app.invoke('connections:delete', { id: copy.id })
  }
})
