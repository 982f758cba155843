import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { DESKTOP, LAPTOP, openApp } from './fixtures/laptop'

/**
 * The explorer in a laptop window and on a large screen: the results keep
 * their room, the header keeps one row, the Columns menu stays inside the
 * window, the theme is the user's to choose, and a page load is clean.
 */

const SMALLEST = { width: 900, height: 600 }

const resultsGrid = (page: Page) => page.getByRole('grid', { name: 'Results' })


async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(resultsGrid(page).getByRole('row').nth(1)).toBeVisible()
}

/**
 * Result rows a user can see: inside the grid's box and the window, and not
 * under anything else (the point at the row's middle belongs to the row).
 */
async function visibleRows(page: Page): Promise<number> {
  return resultsGrid(page).evaluate((grid) => {
    const window = grid.ownerDocument.defaultView!
    const box = grid.getBoundingClientRect()
    const top = Math.max(box.top, 0)
    const bottom = Math.min(box.bottom, window.innerHeight)
    const left = Math.max(box.left, 0)
    const right = Math.min(box.right, window.innerWidth)
    const rows = [...grid.querySelectorAll('[role=row]')].filter((row) => !row.querySelector('[role=columnheader]'))
    return rows.filter((row) => {
      const r = row.getBoundingClientRect()
      if (r.height === 0 || r.top < top - 0.5 || r.bottom > bottom + 0.5) return false
      const x = Math.min(right - 4, Math.max(left + 4, r.left + 8))
      const hit = grid.ownerDocument.elementFromPoint(x, r.top + r.height / 2)
      return hit !== null && row.contains(hit)
    }).length
  })
}

for (const size of [LAPTOP, DESKTOP]) {
  test(`at ${size.width}×${size.height} a search shows at least 8 result rows, with the statistics and facets folded or open`, async ({ page, app }) => {
    await openApp(page, app, size)
    await search(page, 'san')
    await expect(page.getByText(/^Rows 1–10 of/)).toBeVisible()
    // The grid lays its rows out after they arrive: polled, not read once.
    await expect.poll(() => visibleRows(page)).toBeGreaterThanOrEqual(8)

    // The panel folds and unfolds beside the grid; the grid keeps its rows either way.
    const toggle = page.getByRole('button', { name: 'Statistics and facets' })
    const statistics = page.getByRole('region', { name: 'Statistics' })
    const wasOpen = (await toggle.getAttribute('aria-expanded')) === 'true'
    // On a laptop the results come first; on a large screen there is room for both.
    expect(wasOpen).toBe(size.width > 1100)
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', String(!wasOpen))
    await expect(statistics).toBeVisible({ visible: !wasOpen })
    await expect.poll(() => visibleRows(page)).toBeGreaterThanOrEqual(8)
    const grid = (await resultsGrid(page).boundingBox())!
    expect(grid.width).toBeGreaterThan(300)

    // The choice is remembered for windows of this size.
    await page.reload()
    await expect(page.getByRole('button', { name: 'Statistics and facets' })).toHaveAttribute('aria-expanded', String(!wasOpen))
  })
}

test('at 900×600 the grid still shows rows, with the panel open too, and nothing needs scrolling sideways', async ({ page, app }) => {
  await openApp(page, app, SMALLEST)
  await search(page, 'san')
  await expect.poll(() => visibleRows(page)).toBeGreaterThanOrEqual(6)
  await page.getByRole('button', { name: 'Statistics and facets' }).click()
  await expect(page.getByRole('region', { name: 'Statistics' })).toBeVisible()
  await expect.poll(() => visibleRows(page)).toBeGreaterThanOrEqual(6)
  expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(SMALLEST.width)
})

type Box = { top: number; bottom: number; height: number }

/** The header's controls: each one's box, to check they share one row inside the window. */
async function headerBoxes(page: Page): Promise<{ header: Box; items: { name: string; top: number; bottom: number; right: number }[] }> {
  return page.getByRole('banner').evaluate((header) => {
    const items = [...header.querySelectorAll('select, input:not([type=radio]), button:not([tabindex="-1"]), [role=radiogroup], .badge, h1')]
      .map((element) => {
        const r = element.getBoundingClientRect()
        return { name: element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName, top: r.top, bottom: r.bottom, right: r.right }
      })
    const box = header.getBoundingClientRect()
    return { header: { top: box.top, bottom: box.bottom, height: box.height }, items }
  })
}

function expectOneRow(boxes: Awaited<ReturnType<typeof headerBoxes>>, width: number): void {
  for (const item of boxes.items) {
    expect(item.top, `${item.name} inside the header`).toBeGreaterThanOrEqual(boxes.header.top)
    expect(item.bottom, `${item.name} inside the header`).toBeLessThanOrEqual(boxes.header.bottom)
    expect(item.right, `${item.name} inside the window`).toBeLessThanOrEqual(width)
  }
}

test('the header keeps one row: a long connection name is cut with an ellipsis, and a new token is a toast', async ({ page, app }) => {
  const list = (await app.invoke('connections:list', {})).data as { id: string; authUrl: string; queryUrl: string }[]
  const demo = list.find((connection) => connection.id === 'demo')!
  const name = 'Production search cluster for the analytics team in Frankfurt (read only)'
  const saved = (await app.invoke('connections:save', { name, authUrl: demo.authUrl, queryUrl: demo.queryUrl, workspace: 'world', api: 'places', clientId: 'analyst' })).data as { id: string }
  // The page's timers run on a clock the test moves: the toast's time is up when the test says so, not after 6 s of a busy machine.
  await page.clock.install()
  try {
    for (const size of [LAPTOP, DESKTOP]) {
      await openApp(page, app, size)
      const before = await headerBoxes(page)
      expect(before.header.height).toBeLessThanOrEqual(56)
      expectOneRow(before, size.width)

      const connection = page.getByRole('combobox', { name: 'Connection' })
      await connection.selectOption({ label: name })
      await expect(connection).toHaveAttribute('title', name)
      // The select shows the start of the name and an ellipsis, not the whole of it.
      expect(await connection.evaluate((select) => select.scrollWidth > select.clientWidth || select.ownerDocument.defaultView!.getComputedStyle(select).textOverflow === 'ellipsis')).toBe(true)
      expect((await connection.boundingBox())!.width).toBeLessThan(240)
      const long = await headerBoxes(page)
      expect(long.header.height).toBe(before.header.height)
      expectOneRow(long, size.width)

      // Back on the demo, Re-authenticate says so in a toast that goes by itself; nothing in the page moves.
      await connection.selectOption({ label: 'Demo' })
      const main = (await page.getByRole('main').boundingBox())!
      await page.getByRole('button', { name: 'Re-authenticate' }).click()
      const toast = page.getByRole('status').filter({ hasText: 'New token issued' })
      await expect(toast).toBeVisible()
      expect(await page.getByRole('banner').getByText('New token issued').count()).toBe(0)
      expect((await page.getByRole('main').boundingBox())!.y).toBe(main.y)
      expectOneRow(await headerBoxes(page), size.width)
      // A note goes by itself once its time (6 s) is up.
      await page.clock.runFor(6_000)
      await expect(toast).toBeHidden()
    }
  } finally {
    await app.invoke('connections:delete', { id: saved.id })
  }
})

test('API and Config are comboboxes offering what the API describes, and take free text', async ({ page, app }) => {
  await openApp(page, app, LAPTOP)
  const url = page.getByRole('textbox', { name: 'Request URL' })
  const config = page.getByRole('combobox', { name: 'Config' })
  const api = page.getByRole('combobox', { name: 'API' })
  await expect(api).toHaveValue('places')
  await expect(config).toHaveValue('default')

  // The configurations the API describes, all of them, whatever the box holds.
  await page.getByRole('button', { name: 'Config options' }).click()
  const configs = page.getByRole('listbox', { name: 'Config' })
  await expect(configs.getByRole('option')).toHaveText(['default', 'production'])
  await configs.getByRole('option', { name: 'production' }).click()
  await expect(config).toHaveValue('production')
  await expect(url).toHaveValue(/[?&]config=production(&|$)/)

  // From the keyboard: the arrow opens the list and moves through it, Enter picks.
  await config.focus()
  await config.press('ArrowDown')
  await expect(configs).toBeVisible()
  await config.press('ArrowDown')
  await config.press('Enter')
  await expect(config).toHaveValue('default')
  // Sent as the official clients send it, default included.
  await expect(url).toHaveValue(/[?&]config=default(&|$)/)

  // A name the description does not offer still counts, once confirmed; Escape first undoes the typing.
  await config.fill('staging')
  await config.press('Escape')
  await expect(config).toHaveValue('default')
  await config.fill('staging')
  await expect(url).not.toHaveValue(/config=staging/)
  await config.press('Enter')
  await expect(url).toHaveValue(/[?&]config=staging(&|$)/)

  // Another API, typed: described, and offered in the list from then on.
  await api.fill('public')
  await api.press('Enter')
  await expect(url).toHaveValue(/\/api\/public\//)
  await page.getByRole('button', { name: 'API options' }).click()
  await expect(page.getByRole('listbox', { name: 'API' }).getByRole('option')).toHaveText(['places', 'public'])
  await page.getByRole('listbox', { name: 'API' }).getByRole('option', { name: 'places' }).click()
  await expect(url).toHaveValue(/\/api\/places\//)
})

for (const size of [LAPTOP, DESKTOP]) {
  test(`at ${size.width}×${size.height} every option of the Columns menu is visible and inside the window`, async ({ page, app }) => {
    await openApp(page, app, size)
    await search(page, 'san')
    await page.getByRole('button', { name: 'Columns' }).click()
    const menu = page.getByRole('group', { name: 'Attributes shown as columns' })
    await expect(menu).toBeVisible()
    const options = menu.getByRole('checkbox')
    const labels = await options.evaluateAll((inputs) => inputs.map((input) => input.closest('label')?.textContent?.trim() ?? ''))
    expect(labels).toEqual(expect.arrayContaining(['name', 'country', 'population']))
    const menuBox = (await menu.boundingBox())!
    expect(menuBox.x).toBeGreaterThanOrEqual(0)
    expect(menuBox.y).toBeGreaterThanOrEqual(0)
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(size.width)
    expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(size.height)
    for (const [index, label] of labels.entries()) {
      const option = menu.locator('label').nth(index)
      const box = (await option.boundingBox())!
      // The whole label fits: its text is not cut, and it lies inside the menu.
      expect(await option.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), label).toBe(true)
      expect(box.width, label).toBeGreaterThan(40)
      expect(box.x, label).toBeGreaterThanOrEqual(menuBox.x)
      expect(box.x + box.width, label).toBeLessThanOrEqual(menuBox.x + menuBox.width)
      expect(box.y, label).toBeGreaterThanOrEqual(menuBox.y)
      expect(box.y + box.height, label).toBeLessThanOrEqual(menuBox.y + menuBox.height)
    }
    // It works as a menu: an option shows its column, Escape closes it.
    await menu.getByRole('checkbox', { name: 'longitude' }).uncheck()
    await expect(resultsGrid(page).getByRole('columnheader', { name: 'longitude' })).toHaveCount(0)
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
  })
}

/** Pixels of the chart's canvas close to a colour: the bars are drawn in the theme's accent. */
async function chartPixels(page: Page, rgb: [number, number, number]): Promise<number> {
  return page.getByRole('img', { name: 'Probability distribution' }).evaluate((canvas, [r, g, b]) => {
    const data: Uint8ClampedArray = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
    let count = 0
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) < 12 && data[i + 3]! > 240) count++
    }
    return count
  }, rgb)
}

const LIGHT_ACCENT: [number, number, number] = [0x2f, 0x6f, 0xde]
const DARK_ACCENT: [number, number, number] = [0x6d, 0x9e, 0xff]
const background = (page: Page) => page.locator('body').evaluate((body) => body.ownerDocument.defaultView!.getComputedStyle(body).backgroundColor)

test('Theme: Light, Dark or System, remembered, applied before the app draws, and the chart follows', async ({ page, app }) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await openApp(page, app, DESKTOP)
  const theme = page.getByRole('radiogroup', { name: 'Theme' })
  await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked()
  await search(page, 'san')
  await expect.poll(() => chartPixels(page, LIGHT_ACCENT)).toBeGreaterThan(500)
  const light = await background(page)

  await theme.getByRole('radio', { name: 'Dark' }).check()
  await expect.poll(() => background(page)).not.toBe(light)
  await expect.poll(() => chartPixels(page, DARK_ACCENT)).toBeGreaterThan(500)
  expect(await chartPixels(page, LIGHT_ACCENT)).toBe(0)
  const dark = await background(page)

  // Remembered: a reload opens dark, and is dark before the app's script has run (no flash of the light theme).
  let releaseScript = () => {}
  const held = new Promise<void>((resolve) => (releaseScript = resolve))
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.reload({ waitUntil: 'commit' })
  // The document is parsed and styled, while the app's script is still held back.
  // Polled with page.evaluate (DevTools' evaluation is exempt from the page's no-eval policy; waitForFunction's polling is not).
  await expect
    .poll(() => page.evaluate("document.readyState !== 'loading' && [...document.styleSheets].some((sheet) => sheet.href?.includes('/assets/'))"))
    .toBe(true)
  expect(await page.locator('#app').evaluate((app) => app.childElementCount)).toBe(0)
  expect(await background(page)).toBe(dark)
  releaseScript()
  await page.unrouteAll({ behavior: 'wait' })
  await expect(page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' })).toBeChecked()

  // Light holds against a dark system; System follows it, both ways.
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Light' }).check()
  await expect.poll(() => background(page)).toBe(light)
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'System' }).check()
  await expect.poll(() => background(page)).toBe(dark)
  await page.emulateMedia({ colorScheme: 'light' })
  await expect.poll(() => background(page)).toBe(light)
})

test('a page load asks for nothing that is missing and logs no error; the app icon is served', async ({ page, app }) => {
  const problems: string[] = []
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`)
  })
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  await openApp(page, app, DESKTOP)
  await search(page, 'san')

  // Headless Chromium may not fetch icons by itself: fetch what the page names as its icon, as a browser would.
  const icons: { href: string; status: number; type: string | null; bytes: number }[] = await page.locator('head').evaluate(async (head) =>
    Promise.all(
      [...head.querySelectorAll('link[rel~=icon]')].map(async (link) => {
        const response = await fetch(link.href)
        return { href: link.href, status: response.status, type: response.headers.get('content-type'), bytes: (await response.arrayBuffer()).byteLength }
      }),
    ),
  )
  expect(icons.map((icon) => icon.type)).toEqual(expect.arrayContaining(['image/svg+xml', 'image/png']))
  for (const icon of icons) {
    expect(icon.status, icon.href).toBe(200)
    expect(icon.bytes, icon.href).toBeGreaterThan(100)
  }
  expect(problems).toEqual([])
})
