import { expect, test } from './fixtures/app'
import { openApp, screenshotsBothSizes } from './fixtures/laptop'

/** "Copy as" beside "Copy URL": a menu by role, the chosen text on the clipboard, a toast saying so, no secret. */

test('Copy as → curl puts a runnable token request and query on the clipboard, naming the secret variable only', async ({ page, app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
  await openApp(page, app)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  const url = await page.getByRole('textbox', { name: 'Request URL' }).inputValue()

  await page.getByRole('button', { name: 'Copy as' }).click()
  const menu = page.getByRole('menu', { name: 'Copy as' })
  await expect(menu.getByRole('menuitem')).toHaveText(['curl', 'TypeScript', 'Python', 'Request URL'])
  await expect(menu.getByRole('menuitem', { name: 'curl' })).toBeFocused()
  await screenshotsBothSizes(page, 'copy-as-menu')

  await menu.getByRole('menuitem', { name: 'curl' }).click()
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
