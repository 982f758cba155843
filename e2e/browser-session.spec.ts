import { expect, test } from './fixtures/app'

// The page address carries a one-time code (Chromium's command line is readable by every local user);
// the page trades it for a session key kept in sessionStorage, for this tab and this origin only.
test('a page trades its one-time code for a session that outlives a reload, and the code works once', async ({ page, context, app }) => {
  const url = await app.pageUrl()
  await page.goto(url)
  const connection = page.getByRole('combobox', { name: 'Connection' })
  await expect(connection).toHaveValue('demo')
  expect(page.url()).toBe(`${app.origin}/`)

  const code = new URL(url).hash.replace('#code=', '')
  const kept = (await page.evaluate('Object.values(sessionStorage)')) as string[]
  expect(kept).toHaveLength(1)
  expect(kept).not.toContain(code)

  await page.reload()
  await expect(connection).toHaveValue('demo')

  const again = await context.newPage()
  await again.goto(url)
  await expect(again.getByRole('alert').first()).toContainText('no session with the app host')
  await again.close()
})
