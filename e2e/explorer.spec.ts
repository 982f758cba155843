import { createServer } from 'node:net'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'

const firstRank = (page: Page) =>
  page.getByRole('table', { name: 'Results' }).getByRole('row').nth(1).getByRole('cell').first()

async function search(page: Page, text: string): Promise<void> {
  const step = page.getByRole('group', { name: 'Step 1' })
  await step.getByRole('combobox', { name: 'Endpoint' }).fill('search')
  await step.getByRole('combobox', { name: 'Endpoint' }).dispatchEvent('change')
  await step.getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run' }).click()
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  return typeof address === 'object' && address ? address.port : 9
}

test('runs a search on the demo workspace and pages through the results', async ({ page, app }) => {
  await page.goto(app.url)
  await expect(page.getByRole('combobox', { name: 'Connection' })).toHaveValue('demo')
  await search(page, 'san')

  const results = page.getByRole('table', { name: 'Results' })
  await expect(results.getByRole('row').nth(1)).toBeVisible()
  await expect(results.getByRole('columnheader').first()).toHaveText('Rank')
  await expect(firstRank(page)).toHaveText('1')
  await expect(results.getByRole('row')).toHaveCount(11)
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText('matches')
  await expect(page.getByRole('list', { name: 'Probability distribution' }).getByRole('listitem')).not.toHaveCount(0)

  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(firstRank(page)).toHaveText('11')
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeEnabled()
  await page.screenshot({ path: 'e2e/output/explorer-next-page.png' })

  await page.getByRole('button', { name: 'Previous page' }).click()
  await expect(firstRank(page)).toHaveText('1')
})

test('a page size from 1 to 100 sets how many rows a page shows', async ({ page, app }) => {
  await page.goto(app.url)
  await page.getByRole('spinbutton', { name: 'Page size' }).fill('25')
  await search(page, 'san')
  await expect(page.getByRole('table', { name: 'Results' }).getByRole('row')).toHaveCount(26)
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(firstRank(page)).toHaveText('26')
})

test('bad input shows a clear message and the app stays usable', async ({ page, app }) => {
  await page.goto(app.url)
  const alert = page.getByRole('alert')
  const pageSize = page.getByRole('spinbutton', { name: 'Page size' })

  await pageSize.fill('0')
  await search(page, 'paris')
  await expect(alert).toContainText('count must be a whole number from 1 to 100, not 0')
  await pageSize.fill('500')
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(alert).toContainText('not 500')
  await pageSize.fill('10')

  const endpoint = page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })
  await endpoint.fill('no-such-endpoint')
  await endpoint.dispatchEvent('change')
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(alert).toContainText('has no endpoint named "no-such-endpoint"')

  await search(page, 'paris')
  await expect(alert).toHaveCount(0)
  await expect(firstRank(page)).toHaveText('1')
})

test('a wrong client secret and a stopped service are explained, and the demo still works', async ({ page, app }) => {
  const demo = (await app.invoke('connections:list', {})).data as { id: string; authUrl: string; queryUrl: string }[]
  const demoConnection = demo.find((connection) => connection.id === 'demo')!
  const wrong = await app.invoke('connections:save', {
    name: 'Wrong secret',
    authUrl: demoConnection.authUrl,
    queryUrl: demoConnection.queryUrl,
    workspace: 'world',
    api: 'places',
    clientId: 'demo',
  })
  const wrongId = (wrong.data as { id: string }).id
  expect((await app.invoke('secrets:set', { connectionId: wrongId, secret: 'not-the-secret' })).ok).toBe(true)
  const port = await closedPort()
  const stopped = await app.invoke('connections:save', {
    name: 'Stopped service',
    authUrl: `http://127.0.0.1:${port}/auth`,
    queryUrl: `http://127.0.0.1:${port}/query`,
    workspace: 'world',
    api: 'places',
    clientId: 'demo',
  })
  await app.invoke('secrets:set', { connectionId: (stopped.data as { id: string }).id, secret: 'any-secret' })

  await page.goto(app.url)
  const connection = page.getByRole('combobox', { name: 'Connection' })
  const alert = page.getByRole('alert').filter({ hasText: 'The query did not run' })
  await connection.selectOption({ label: 'Wrong secret' })
  await search(page, 'paris')
  await expect(alert).toContainText('Invalid client credentials')

  await connection.selectOption({ label: 'Stopped service' })
  await search(page, 'paris')
  await expect(alert).toContainText(`Connection refused by 127.0.0.1:${port}`)
  await expect(alert).not.toContainText('ECONNREFUSED')

  await connection.selectOption({ label: 'Demo' })
  await search(page, 'paris')
  await expect(firstRank(page)).toHaveText('1')
})
