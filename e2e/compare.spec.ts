import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { readCsv } from '../test/fixtures/csv'
import { expect, test, type LaunchedApp } from './fixtures/app'
import { seriousViolations } from './fixtures/axe'
import { DESKTOP, LAPTOP, openApp } from './fixtures/laptop'
import { startSlowProxy } from './fixtures/slow-proxy'
import { showView, viewTab } from './fixtures/workbench'

/**
 * The compare view: the editor's chain on two targets side by side, by
 * accessible names. Default against production for "san" moves Sanaa to the
 * top of B and gives an RBO below 1; a side that fails shows its error beside
 * the other's ranking; Cancel stops both sides in the main process; the
 * export is a CSV of the table's rows; axe finds nothing serious in either
 * theme. Screenshots land in e2e/output/screens/ (and docs/screenshots/compare.png).
 */

const OUT = 'e2e/output/screens'
const grid = (page: Page) => page.getByRole('grid', { name: 'Results' })
const compareTab = (page: Page) => viewTab(page, 'Compare')
const view = (page: Page) => page.getByRole('region', { name: 'Compare view' })
const changes = (page: Page) => page.getByRole('table', { name: 'Rank changes' })
const figure = (page: Page, name: string | RegExp) => view(page).getByRole('list', { name: 'Figures' }).getByRole('listitem', { name })

test.beforeEach(async ({ app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
})

async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible()
}

/** Opens the compare view and sets up "Config A vs config B": default against production on the Demo. */
async function compareConfigs(page: Page): Promise<void> {
  await showView(page, 'Compare')
  await view(page).getByRole('button', { name: 'Config A vs config B' }).click()
  await expect(view(page).getByRole('combobox', { name: 'Config A' })).toHaveValue('default')
  await expect(view(page).getByRole('combobox', { name: 'Config B' })).toHaveValue('production')
}

/** A figure's value as a number, read from its text ("RBO 0.181", "Kendall's tau −1.000"). */
async function figureValue(page: Page, name: string): Promise<number> {
  const text = (await figure(page, new RegExp(`^${name}\\b`)).textContent()) ?? ''
  const match = /([−-]?\d+\.\d+)/.exec(text.replace(name, ''))
  expect(match, `a number in "${text}"`).not.toBeNull()
  return Number(match![1]!.replace('−', '-'))
}

/** The table's body rows as the user reads them: item, rank in A, rank in B, move. */
async function tableRows(page: Page): Promise<string[][]> {
  return changes(page).evaluate((table) =>
    [...table.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.replace(/\s+/g, ' ').trim() ?? '')),
  )
}


test('default vs production for "san": Sanaa is new in B at rank 1, the RBO is below 1, and leaving the view finds the results as they were', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'san')
  const firstRow = await grid(page).getByRole('row').nth(1).textContent()

  await compareConfigs(page)
  // The sidebar's Run runs the comparison while the view is open, as Run comparison does.
  await page.getByRole('button', { name: 'Run', exact: true }).click()

  const sanaa = changes(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Sanaa/ }) })
  await expect(sanaa).toHaveCount(1)
  await expect(sanaa).toContainText('new in B')
  await expect(sanaa.getByRole('cell').nth(1)).toHaveText('1')
  await expect(changes(page).getByRole('columnheader')).toHaveText(['Item', 'Rank in A', 'Rank in B', 'Move'])
  // The item default ranks first falls in production: its move says how far, in words as well as colour.
  const potito = changes(page).getByRole('row').filter({ hasText: 'San Potito Sannitico' })
  await expect(potito).toContainText(/↓\d+/)

  const rbo = await figureValue(page, 'RBO')
  expect(rbo).toBeGreaterThan(0)
  expect(rbo).toBeLessThan(1)
  await expect(figure(page, /^RBO/)).toHaveText(/0\.\d{3}/)
  await expect(figure(page, /^Overlap@10/)).toContainText(/\d+ of 10/)
  expect(await figureValue(page, "Kendall's tau")).toBeGreaterThanOrEqual(-1)
  // Each figure is explained to assistive technology, and on hover or focus to the eye.
  await expect(figure(page, /^RBO/)).toHaveAccessibleDescription(/Rank-biased overlap \(p = 0\.9, extrapolated\)/)
  await figure(page, /^Jaccard@10/).focus()
  await expect(figure(page, /^Jaccard@10/).getByRole('tooltip')).toBeVisible()

  const sideA = view(page).getByRole('region', { name: 'Side A' })
  const sideB = view(page).getByRole('region', { name: 'Side B' })
  await expect(sideA).toContainText('Demo · config default')
  await expect(sideB).toContainText('Demo · config production')
  for (const side of [sideA, sideB]) {
    await expect(side).toContainText('status 200')
    await expect(side).toContainText(/total [\d,]+/)
    await expect(side).toContainText(/duration \d+ ms/)
  }
  // The statistics panel starts folded in a laptop's window, as the explorer's does.
  const stats = view(page).getByRole('complementary', { name: 'Comparison statistics' })
  await expect(stats.getByRole('button', { name: 'Statistics' })).toHaveAttribute('aria-expanded', 'false')
  await stats.getByRole('button', { name: 'Statistics' }).click()
  await expect(stats.getByRole('img', { name: 'Probability distributions of A and B' })).toBeVisible()
  // Its numbers, for those who cannot see the bars: a table the chart is described by.
  const numbers = stats.getByRole('table', { name: 'Matches at or above each probability cutoff, A and B' })
  await expect(numbers.getByRole('columnheader')).toHaveText(['Cutoff', 'A · Demo · config default', 'B · Demo · config production'])
  await expect(numbers.getByRole('row').nth(1).getByRole('cell')).toHaveText(['≥ 0.0', '5,628', '5,628'])

  // Leaving the view: the results as they were, not run again.
  await showView(page, 'Results')
  await expect(compareTab(page)).toHaveAttribute('aria-selected', 'false')
  await expect(view(page)).toHaveCount(0)
  await expect(grid(page).getByRole('row').nth(1)).toHaveText(firstRow ?? '')
  // And back: the comparison is still there.
  await compareTab(page).click()
  await expect(sanaa).toContainText('new in B')
})

test('a side whose configuration does not exist shows its error in full, beside the ranking of the side that answered', async ({ page, app }) => {
  await openApp(page, app)
  await search(page, 'san')
  await compareConfigs(page)
  const configB = view(page).getByRole('combobox', { name: 'Config B' })
  await configB.fill('nope')
  await configB.press('Enter')
  // Ctrl+Enter runs the comparison while the view is open.
  await page.keyboard.press('Control+Enter')

  const sideB = view(page).getByRole('region', { name: 'Side B' })
  await expect(sideB).toContainText('Failed:')
  await expect(sideB).toContainText('404: No such workspace configuration: world/nope')
  await expect(view(page).getByRole('region', { name: 'Side A' })).toContainText('status 200')
  await expect(view(page).getByText('No figures: a side failed')).toBeVisible()
  await expect(changes(page)).toHaveCount(0)
  await expect(view(page).getByRole('table', { name: 'Top 10 of A' }).getByRole('row')).toHaveCount(11)
})

test('a query with fewer results than the depth: overlap says "2 of 2 (both sides returned only 2)" at depth 50, and what Jaccard and RBO are over', async ({ page, app }) => {
  await openApp(page, app)
  // "tokyo" finds exactly two places, on either configuration.
  await search(page, 'tokyo')
  await compareConfigs(page)
  await view(page).getByRole('combobox', { name: 'Depth' }).selectOption('50')
  await page.keyboard.press('Control+Enter')

  await expect(figure(page, /^Overlap@50/)).toHaveText(/2 of 2 \(both sides returned only 2\)/)
  await expect(figure(page, /^Overlap@50/)).not.toContainText('of 50')
  await expect(figure(page, /^Overlap@50/)).toHaveAccessibleDescription("How many of A's top 50 are also in B's top 50: at most 2, as both sides returned only 2.")
  await expect(figure(page, /^Jaccard@50/)).toHaveAccessibleDescription(/Computed over the 2 items each side returned\.$/)
  await expect(figure(page, /^RBO/)).toHaveAccessibleDescription(/Computed over the 2 items each side returned\.$/)
})

test('Export comparison downloads a CSV with one header row and the rows of the table, at the depth chosen', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await search(page, 'san')
  await compareConfigs(page)
  await view(page).getByRole('combobox', { name: 'Depth' }).selectOption('50')
  await view(page).getByRole('button', { name: 'Run comparison' }).click()
  await expect(changes(page)).toBeVisible()
  await expect(figure(page, /^Overlap@50/)).toContainText(/\d+ of 50/)

  const downloading = page.waitForEvent('download')
  await view(page).getByRole('button', { name: 'Export comparison' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('Top 50 of Demo · config default vs Demo · config production.csv')
  const [header, ...rows] = readCsv(readFileSync((await download.path())!, 'utf8'))
  expect(header).toEqual(['key', 'label', 'rank_a', 'rank_b', 'move', 'depth', 'target_a', 'target_b', 'overlap', 'jaccard', 'rbo', 'kendall_tau'])

  const shown = await tableRows(page)
  expect(rows).toHaveLength(shown.length)
  expect(shown.length).toBeGreaterThan(50)
  // Each CSV row is the table's row: the item (label and key), its ranks (a dash where absent) and its move.
  for (const [index, row] of rows.entries()) {
    const [key, label, rankA, rankB, move, depth, targetA, targetB, overlap, , rbo] = row
    expect(shown[index]).toEqual([label === key ? key : `${label} ${key}`, rankA || '–', rankB || '–', move])
    expect([depth, targetA, targetB]).toEqual(['50', 'Demo · config default', 'Demo · config production'])
    expect(Number(rbo)).toBeLessThan(1)
    expect(`${overlap} of 50`).toBe(await figure(page, /^Overlap@50/).locator('.compare-figure__value').textContent())
  }
  // Within the top 50 of default too, Sanaa climbs to B's first place.
  const sanaa = rows.find((row) => row[1] === 'Sanaa')!
  expect(sanaa[3]).toBe('1')
  expect(sanaa[4]).toBe(sanaa[2] ? `↑${Number(sanaa[2]) - 1}` : 'new in B')
})

/** A connection to the demo through a proxy that holds each query until it is cancelled or the proxy closes. */
async function slowConnection(app: LaunchedApp) {
  const demo = ((await app.invoke('connections:list', {})).data as { id: string; queryUrl: string; authUrl: string }[]).find((c) => c.id === 'demo')!
  // A side asks for `results,count` in one request.
  const proxy = await startSlowProxy(demo.queryUrl, { holds: /\/results,count\?/ })
  const saved = (await app.invoke('connections:save', { name: 'Slow demo', authUrl: demo.authUrl, queryUrl: proxy.queryUrl, workspace: 'world', api: 'public', clientId: '' }))
    .data as { id: string }
  return {
    proxy,
    remove: async () => {
      await app.invoke('connections:delete', { id: saved.id })
      await proxy.close()
    },
  }
}

test('"Same query on two connections" puts B on another connection; Cancel stops the slow side in the main process and keeps the form', async ({ page, app }) => {
  const slow = await slowConnection(app)
  try {
    await openApp(page, app)
    await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill('san')
    await compareTab(page).click()
    await view(page).getByRole('button', { name: 'Same query on two connections' }).click()
    await expect(view(page).getByRole('combobox', { name: 'Connection A' })).toHaveValue('demo')
    await expect(view(page).getByRole('combobox', { name: 'Connection B' })).not.toHaveValue('demo')
    // The slow connection does not know the places API: B runs on its own, public.
    await expect(view(page).getByRole('combobox', { name: 'API B' })).toHaveValue('public')

    await view(page).getByRole('button', { name: 'Run comparison' }).click()
    await expect(view(page).getByRole('status').filter({ hasText: 'Running on A and B' })).toBeVisible()
    await expect.poll(() => slow.proxy.held()).toBe(1)
    await view(page).getByRole('button', { name: 'Cancel' }).click()
    await expect(view(page).getByText('Cancelled. Press Run comparison to try again.')).toBeVisible()
    await expect.poll(() => slow.proxy.closedEarly()).toBe(1)
    await expect(view(page).getByRole('button', { name: 'Run comparison' })).toBeEnabled()
    await expect(view(page).getByRole('combobox', { name: 'API B' })).toHaveValue('public')
  } finally {
    await slow.remove()
  }
})

test('axe: nothing serious or critical in the compare view, light and dark; screenshots at 1024×700 and 1440×900', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await search(page, 'san')
  await compareConfigs(page)
  await view(page).getByRole('button', { name: 'Run comparison' }).click()
  await expect(changes(page)).toBeVisible()

  const found: string[] = []
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const line of await seriousViolations(page)) found.push(`compare view, ${colorScheme}: ${line}`)
  }
  mkdirSync(OUT, { recursive: true })
  for (const size of [LAPTOP, DESKTOP]) {
    await page.setViewportSize(size)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await page.screenshot({ path: `${OUT}/compare-${size.width}-${colorScheme}.png` })
    }
  }
  copyFileSync(`${OUT}/compare-1440-light.png`, 'docs/screenshots/compare.png')

  // The failed side, too.
  await page.emulateMedia({ colorScheme: 'light' })
  const configB = view(page).getByRole('combobox', { name: 'Config B' })
  await configB.fill('nope')
  await configB.press('Enter')
  await view(page).getByRole('button', { name: 'Run comparison' }).click()
  await expect(view(page).getByRole('region', { name: 'Side B' })).toContainText('No such workspace configuration')
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const line of await seriousViolations(page)) found.push(`failed side, ${colorScheme}: ${line}`)
    await page.screenshot({ path: `${OUT}/compare-failed-${colorScheme}.png` })
  }
  await page.emulateMedia({ colorScheme: null })
  expect(found).toEqual([])
})
