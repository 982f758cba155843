import { closedPort } from '../test/fixtures/ports'
import type { Page } from '@playwright/test'
import { expect, test, type LaunchedApp } from './fixtures/app'
import { startSlowProxy, type SlowProxy, type SlowProxyOptions } from './fixtures/slow-proxy'

const resultsTable = (page: Page) => page.getByRole('grid', { name: 'Results' })
const firstRank = (page: Page) => resultsTable(page).getByRole('row').nth(1).getByRole('gridcell').first()
const urlBox = (page: Page) => page.getByRole('textbox', { name: 'Request URL' })

async function search(page: Page, text: string): Promise<void> {
  const step = page.getByRole('group', { name: 'Step 1' })
  // Wait for the API description (the app then preselects search), so the step's query field is the described one.
  await expect(page.getByRole('combobox', { name: 'Connection' })).not.toHaveValue('')
  await expect(step.getByRole('combobox', { name: 'Endpoint' })).not.toHaveValue('')
  await step.getByRole('combobox', { name: 'Endpoint' }).fill('search')
  await step.getByRole('combobox', { name: 'Endpoint' }).dispatchEvent('change')
  await step.getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
}

/** Types a URL into the request URL box and presses Enter, as a user who pasted it would confirm it. */
/**
 * The page has started on the demo: its connection chosen and the editor's starting chain in place, as a user
 * sees it before typing. (A URL entered earlier may still be replaced by that starting chain.)
 */
async function startedOnDemo(page: Page): Promise<void> {
  await expect(page.getByRole('combobox', { name: 'Connection' })).toHaveValue('demo')
  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
}

async function enterUrl(page: Page, url: string): Promise<void> {
  await urlBox(page).fill(url)
  await urlBox(page).press('Enter')
}

/** The demo connection's addresses; its query URL is what every URL in these tests starts with. */
async function demoConnection(app: LaunchedApp): Promise<{ queryUrl: string; authUrl: string }> {
  const list = (await app.invoke('connections:list', {})).data as { id: string; queryUrl: string; authUrl: string }[]
  return list.find((connection) => connection.id === 'demo')!
}

async function demoQueryUrl(app: LaunchedApp): Promise<string> {
  return (await demoConnection(app)).queryUrl
}

/**
 * A saved connection to the demo workspace through a slow proxy, which holds its queries until the test releases
 * them (or they are cancelled). `remove` deletes it (so the app, which reopens on the connection last chosen,
 * starts on the demo again for later tests) and stops the proxy, dropping whatever it still holds.
 */
async function slowConnection(app: LaunchedApp, name: string, options: SlowProxyOptions = {}): Promise<{ id: string; proxy: SlowProxy; remove: () => Promise<void> }> {
  const demo = await demoConnection(app)
  const proxy = await startSlowProxy(demo.queryUrl, options)
  const saved = (await app.invoke('connections:save', { name, authUrl: demo.authUrl, queryUrl: proxy.queryUrl, workspace: 'world', api: 'public', clientId: '' })).data as { id: string }
  return {
    id: saved.id,
    proxy,
    remove: async () => {
      await app.invoke('connections:delete', { id: saved.id })
      await proxy.close()
    },
  }
}

/** The text of every rendered row, by column header. */
async function gridRows(page: Page): Promise<Record<string, string>[]> {
  return resultsTable(page).evaluate((table) => {
    const headers = [...table.querySelectorAll('[role=columnheader]')].map((cell) => cell.textContent?.trim() ?? '')
    return [...table.querySelectorAll('[role=rowgroup]:last-child [role=row]')].map((row) => {
      const cells = [...row.querySelectorAll('[role=gridcell]')].map((cell) => cell.textContent?.trim() ?? '')
      return Object.fromEntries(headers.map((header, i) => [header, cells[i] ?? '']))
    })
  })
}


test('runs a search on the demo workspace and pages through the results', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await startedOnDemo(page)
  await search(page, 'san')

  const results = resultsTable(page)
  await expect(results.getByRole('row').nth(1)).toBeVisible()
  await expect(results.getByRole('columnheader').first()).toHaveText('Rank')
  await expect(firstRank(page)).toHaveText('1')
  await expect(results.getByRole('row')).toHaveCount(11)
  const statistics = page.getByRole('region', { name: 'Statistics' })
  await expect(statistics).toContainText('matches')
  await expect(statistics.getByRole('img', { name: 'Probability distribution' })).toBeVisible()
  await expect(page.getByText('of 563', { exact: true })).toBeVisible()

  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(firstRank(page)).toHaveText('11')
  await expect(page.getByRole('spinbutton', { name: 'Page' })).toHaveValue('2')
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeEnabled()

  await page.getByRole('button', { name: 'Previous page' }).click()
  await expect(firstRank(page)).toHaveText('1')

  await page.getByRole('spinbutton', { name: 'Page' }).fill('40')
  await page.getByRole('spinbutton', { name: 'Page' }).press('Enter')
  await expect(firstRank(page)).toHaveText('391')
})

test('a page size from the list sets how many rows a page shows', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await page.getByRole('combobox', { name: 'Page size' }).selectOption('25')
  await search(page, 'san')
  // The grid is virtual: it says how many rows it holds, and renders those in view.
  await expect(resultsTable(page)).toHaveAttribute('aria-rowcount', '26')
  await resultsTable(page).evaluate((grid) => (grid.scrollTop = grid.scrollHeight))
  await expect(resultsTable(page).locator('[role=row][aria-rowindex="26"]').getByRole('gridcell').first()).toHaveText('25')
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(firstRank(page)).toHaveText('26')
})

test('bad input shows a clear message and the app stays usable', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  // The page trades its code for a session before it loads anything: a URL pasted before a connection is chosen is refused.
  await expect(page.getByRole('combobox', { name: 'Connection' })).toHaveValue('demo')
  const base = await demoQueryUrl(app)
  const alert = page.getByRole('alert')

  // A page size out of bounds can only come from a pasted URL; it is kept, shown, and refused before sending.
  await enterUrl(page, `${base}/world/api/places/e/search/p/query/paris/results?count=0`)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(alert).toContainText('count must be a whole number from 1 to 100, not 0')
  await enterUrl(page, `${base}/world/api/places/e/search/p/query/paris/results?count=500`)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(alert).toContainText('not 500')
  await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveAttribute('aria-invalid', 'true')
  await page.getByRole('combobox', { name: 'Page size' }).selectOption('10')

  const endpoint = page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })
  await endpoint.fill('no-such-endpoint')
  await endpoint.dispatchEvent('change')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(alert).toContainText('has no endpoint named "no-such-endpoint"')
  await expect(endpoint).toHaveAttribute('aria-invalid', 'true')

  await search(page, 'paris')
  await expect(alert).toHaveCount(0)
  await expect(firstRank(page)).toHaveText('1')
})

test('builds search, a two-option facet filter and a numeric filter by pointing and clicking', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'san')
  const summary = page.getByText(/^Rows 1–10 of/)
  await expect(summary).toHaveText('Rows 1–10 of 5,628')

  const country = page.getByRole('group', { name: 'country' })
  await country.getByRole('checkbox', { name: 'Italy' }).check()
  await expect(summary).not.toHaveText('Rows 1–10 of 5,628')
  await country.getByRole('checkbox', { name: 'Spain' }).check()
  await expect(country.getByRole('checkbox', { name: 'Italy' })).toBeChecked()
  await expect(country.getByRole('checkbox', { name: 'Spain' })).toBeChecked()
  await expect(page.getByRole('group', { name: 'Step 2' }).getByRole('textbox', { name: 'value' })).toHaveValue('1("IT")|1("ES")')

  await page.getByRole('button', { name: 'Add step' }).click()
  const step3 = page.getByRole('group', { name: 'Step 3' })
  await step3.getByRole('combobox', { name: 'Endpoint' }).fill('population')
  await step3.getByRole('combobox', { name: 'Endpoint' }).dispatchEvent('change')
  await step3.getByRole('textbox', { name: 'min' }).fill('5000')
  await expect(urlBox(page)).toHaveValue(/\/e\/search\/p\/query\/san\/e\/country:FILTER\/p\/value\/1\(%22IT%22\)%7C1\(%22ES%22\)\/e\/population\/p\/min\/5000\/results\?config=default&count=10$/)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  // The rows of this run, not those of the facet run before it (the summary reads the same way for both).
  await expect
    .poll(async () => {
      const rows = await gridRows(page)
      return rows.length === 10 && rows.every((row) => Number(row['population']) >= 5000)
    })
    .toBe(true)
  await expect(summary).toHaveText(/^Rows 1–10 of \d/)
  const filteredTotal = await summary.textContent()

  for (const direction of ['first page', 'Next page', 'Previous page'] as const) {
    if (direction !== 'first page') await page.getByRole('button', { name: direction }).click()
    await expect(firstRank(page)).toHaveText(direction === 'Next page' ? '11' : '1')
    const rows = await gridRows(page)
    expect(rows).toHaveLength(10)
    for (const row of rows) {
      expect(['IT', 'ES']).toContain(row['country'])
      expect(Number(row['population'])).toBeGreaterThanOrEqual(5000)
    }
  }
  expect(filteredTotal).not.toBe('Rows 1–10 of 5,628')

  // Moving the numeric filter before the facet filter by keyboard, and switching it off, keeps the chain coherent.
  await step3.getByRole('button', { name: 'Move up' }).click()
  await expect(page.getByRole('group', { name: 'Step 2' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('population')
  await expect(urlBox(page)).toHaveValue(/\/e\/population\/p\/min\/5000\/e\/country:FILTER\//)
  await page.getByRole('group', { name: 'Step 2' }).getByRole('switch', { name: 'Step on' }).uncheck()
  await expect(urlBox(page)).not.toHaveValue(/population/)

  await country.getByRole('button', { name: 'Clear country' }).click()
  await expect(urlBox(page)).not.toHaveValue(/country:FILTER/)
})

test('an empty step is left out of the URL, keeps the facet lists whole and is named at Run; parameters follow their endpoint', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'san')
  const summary = page.getByText(/^Rows 1–10 of/)
  await expect(summary).toHaveText('Rows 1–10 of 5,628')
  const before = await urlBox(page).inputValue()

  await page.getByRole('button', { name: 'Add step' }).click()
  const empty = page.getByRole('group', { name: 'Step 2' })
  await expect(empty.getByText('Empty: not in the URL until it has an endpoint.')).toBeVisible()
  await expect(urlBox(page)).toHaveValue(before)
  await expect(urlBox(page)).not.toHaveValue(/\/e\/\//)

  // The facet lists are asked with the chain as sent: ticking Spain leaves the other countries listed.
  const country = page.getByRole('group', { name: 'country' })
  await country.getByRole('checkbox', { name: 'Spain' }).check()
  await expect(country.getByRole('checkbox', { name: 'Spain' })).toBeChecked()
  await expect(country.getByRole('checkbox', { name: 'Italy' })).toBeVisible()
  await expect(urlBox(page)).toHaveValue(/\/e\/country:FILTER\//)
  await expect(urlBox(page)).not.toHaveValue(/\/e\/\//)

  // Run names the empty card (still Step 2: the filter went last) and sends nothing.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Step 2 is empty: choose its endpoint, or remove the step' })).toBeVisible()
  await expect(empty.getByText('Step 2 is empty: choose its endpoint, or remove the step')).toBeVisible()

  // Given an endpoint, it is sent with its parameters; cleared, its parameters go with it.
  const endpoint = empty.getByRole('combobox', { name: 'Endpoint' })
  await endpoint.fill('population')
  await endpoint.dispatchEvent('change')
  await empty.getByRole('textbox', { name: 'min' }).fill('5000')
  await empty.getByRole('textbox', { name: 'max' }).fill('90000')
  await expect(urlBox(page)).toHaveValue(/\/e\/population\/p\/min\/5000\/p\/max\/90000\//)
  await endpoint.fill('')
  await endpoint.press('Tab')
  await expect(empty.getByRole('textbox', { name: 'min' })).toHaveCount(0)
  await expect(urlBox(page)).not.toHaveValue(/population|\/p\/min\/|\/e\/\//)

  // Removed, it no longer stands in the way.
  await empty.getByRole('button', { name: 'Remove step' }).click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(summary).not.toHaveText('Rows 1–10 of 5,628')
  await expect(page.getByRole('alert')).toHaveCount(0)
})

test('loads more rows, up to 1,000, and scrolls to the end of them', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'san')
  await expect(firstRank(page)).toHaveText('1')
  await page.getByRole('combobox', { name: 'Load how many' }).selectOption('1000')
  await page.getByRole('button', { name: 'Load more' }).click()
  // The results toolbar and the pager both say it.
  // A hundred pages or so, one after another: a hang guard of the test's own, not a measure of speed.
  await expect(page.getByText(/^Rows 1–1,000 of 5,628$/).first()).toBeVisible({ timeout: 90_000 })
  await expect(resultsTable(page)).toHaveAttribute('aria-rowcount', '1001')
  // Only the rows in view are in the page: virtual scrolling.
  expect(await resultsTable(page).getByRole('row').count()).toBeLessThan(60)

  await resultsTable(page).evaluate((grid) => (grid.scrollTop = grid.scrollHeight))
  const lastRow = resultsTable(page).locator('[role=row][aria-rowindex="1001"]')
  await expect(lastRow.getByRole('gridcell').first()).toHaveText('1000')
  await expect(lastRow).toBeInViewport()
})

test('a pasted URL with a context parameter and a version segment gives the same chain back', async ({ page, app, context }) => {
  await page.goto(await app.pageUrl())
  await startedOnDemo(page)
  const url = `${await demoQueryUrl(app)}/4/world/api/places/c/lang/en/e/search/p/query/paris/e/population/p/min/1000/results?count=25`
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(url)})`)
  await urlBox(page).focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('ControlOrMeta+V')

  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'lang' })).toHaveValue('en')
  await expect(page.getByRole('group', { name: 'Step 2' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
  await expect(page.getByRole('group', { name: 'Step 2' }).getByRole('textbox', { name: 'query' })).toHaveValue('paris')
  await expect(page.getByRole('group', { name: 'Step 3' }).getByRole('textbox', { name: 'min' })).toHaveValue('1000')
  await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveValue('25')
  // The same URL, with the config the official clients always send.
  const sent = url.replace('?count=25', '?config=default&count=25')
  await expect(urlBox(page)).toHaveValue(sent)

  await page.getByRole('button', { name: 'Copy URL' }).click()
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(sent)

  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(firstRank(page)).toHaveText('1')
  await page.getByRole('tab', { name: 'Raw response' }).click()
  await expect(page.getByLabel('Response body')).toContainText('"rank": 1')
  await expect(page.getByRole('tabpanel', { name: 'Raw response' })).toContainText(`/4/world/api/places/c/lang/en/e/search/`)
})

test('a URL that does not read shows why under the box and keeps the chain', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'lyon')
  await expect(firstRank(page)).toHaveText('1')
  const before = await urlBox(page).inputValue()
  const base = await demoQueryUrl(app)

  await enterUrl(page, `${base}/world/api/places/e/search/p/query`)
  await expect(page.getByText(/The chain was not changed/)).toBeVisible()
  await expect(urlBox(page)).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' })).toHaveValue('lyon')

  await enterUrl(page, 'not a url at all')
  await expect(page.getByText(/not an absolute http\(s\) URL/)).toBeVisible()
  await urlBox(page).press('Escape')
  await expect(urlBox(page)).toHaveValue(before)
  await expect(page.getByText(/The chain was not changed/)).toHaveCount(0)
})

test('a slow query shows its progress and can be cancelled', async ({ page, app }) => {
  // A real HTTP server between the app and the service that holds each query until it is cancelled: the query is slow for real.
  const { proxy, remove } = await slowConnection(app, 'Slow link')
  try {
    await page.goto(await app.pageUrl())
    await page.getByRole('combobox', { name: 'Connection' }).selectOption({ label: 'Slow link' })
    await expect(page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })).toHaveValue('search')
    await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill('paris')
    await page.getByRole('button', { name: 'Run', exact: true }).click()

    const progress = page.getByRole('progressbar', { name: 'Running query' })
    await expect(progress).toBeVisible()
    await expect(progress).toHaveAttribute('aria-valuetext', /Running… \d+\.\d s/)
    await expect.poll(() => proxy.held()).toBeGreaterThan(0)
    await page.getByRole('button', { name: 'Cancel' }).click()

    await expect(page.getByRole('status').filter({ hasText: 'Cancelled.' })).toBeVisible()
    await expect(progress).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
    // The cancel reached the main process: it closed its request to the service.
    await expect.poll(() => proxy.closedEarly()).toBeGreaterThan(0)
  } finally {
    await remove()
  }
})

test('an endpoint typed before the API description arrives is kept', async ({ page, app }) => {
  // Everything, the API description included, is held until the test lets it through: the user is typing before the app knows the endpoints.
  const { proxy, remove } = await slowConnection(app, 'Slow description', { holds: /./ })
  try {
    await page.goto(await app.pageUrl())
    const endpoint = page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })
    await expect(endpoint).toHaveValue('search')
    // The Demo's description is in (the step shows what its endpoint does): it cannot arrive later and fill the step.
    await expect(page.getByRole('group', { name: 'Step 1' }).getByText(/^Cities whose name matches the query/)).toBeVisible()
    // An empty step on a connection whose description is on its way: the app would fill in its search endpoint.
    await endpoint.fill('')
    await endpoint.blur()
    await page.getByRole('combobox', { name: 'Connection' }).selectOption({ label: 'Slow description' })
    // The description has been asked for and is on its way (held at the proxy).
    await expect.poll(() => proxy.held()).toBeGreaterThan(0)
    await endpoint.pressSequentially('city')
    expect(proxy.held()).toBeGreaterThan(0)
    // The description arrives: the endpoint is described now, and what the user typed still stands.
    proxy.release()
    await expect(page.getByRole('group', { name: 'Step 1' }).getByText('The city with the given id (no result when there is none).')).toBeVisible()
    await expect(endpoint).toHaveValue('city')
    await expect(urlBox(page)).toHaveValue(/\/e\/city\/p\/id\//)
  } finally {
    await remove()
  }
})

test('a wrong client secret and a stopped service are explained, and the demo still works', async ({ page, app }) => {
  const demo = await demoConnection(app)
  const wrong = await app.invoke('connections:save', {
    name: 'Wrong secret',
    authUrl: demo.authUrl,
    queryUrl: demo.queryUrl,
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

  await page.goto(await app.pageUrl())
  const connection = page.getByRole('combobox', { name: 'Connection' })
  const alert = page.getByRole('alert').filter({ hasText: 'The query did not run' })
  await connection.selectOption({ label: 'Wrong secret' })
  await search(page, 'paris')
  await expect(alert).toContainText('Invalid client credentials')

  await connection.selectOption({ label: 'Stopped service' })
  await search(page, 'paris')
  await expect(alert).toContainText(`Connection refused by 127.0.0.1:${port}`)
  await expect(alert).not.toContainText('ECONNREFUSED')
  // No description could be read, so the configuration is typed (and confirmed), not picked.
  await page.getByRole('combobox', { name: 'Config' }).fill('staging')
  await page.getByRole('combobox', { name: 'Config' }).press('Enter')
  await expect(urlBox(page)).toHaveValue(/[?&]config=staging(&|$)/)

  await connection.selectOption({ label: 'Demo' })
  await expect(page.getByRole('combobox', { name: 'Config' })).toHaveValue('default')
  await search(page, 'paris')
  await expect(firstRank(page)).toHaveText('1')
})

test('the app reopens on the connection chosen last, and on the demo once that one is deleted', async ({ page, app }) => {
  const { id, proxy, remove } = await slowConnection(app, 'Chosen last')
  // Nothing here is meant to be slow: the proxy lets everything through.
  proxy.release()
  try {
    await page.goto(await app.pageUrl())
    const connection = page.getByRole('combobox', { name: 'Connection' })
    await expect(connection).toHaveValue('demo')
    await connection.selectOption({ label: 'Chosen last' })
    // The choice is remembered by a call of its own: reload once the main process has it, as a person would a moment later.
    await expect.poll(async () => ((await app.invoke('app:info', {})).data as { lastConnectionId: string | null }).lastConnectionId).toBe(id)
    await page.reload()
    await expect(page.getByRole('combobox', { name: 'Connection' }).locator('option:checked')).toHaveText('Chosen last')
  } finally {
    await remove()
  }
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Connection' })).toHaveValue('demo')
})

test('an identical query within 30 s is answered from the shared cache, and Run again asks the service', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await search(page, 'lyon')
  await expect(firstRank(page)).toHaveText('1')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(firstRank(page)).toHaveText('1')
  await page.getByRole('tab', { name: 'Raw response' }).click()
  await expect(page.getByRole('tabpanel', { name: 'Raw response' })).toContainText('from the short-lived cache')

  await page.getByRole('button', { name: 'Run again' }).click()
  await expect(page.getByRole('tabpanel', { name: 'Raw response' })).toContainText('fresh')
  await expect(page.getByRole('tabpanel', { name: 'Raw response' })).not.toContainText('from the short-lived cache')
})
