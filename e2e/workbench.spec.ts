import { copyFileSync } from 'node:fs'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures/app'
import { DESKTOP, LAPTOP, openApp, screenshotsBothSizes } from './fixtures/laptop'
import { openWorld, showView, viewTab } from './fixtures/workbench'

/**
 * The workbench (issue 23): one view at a time under the request URL, chosen
 * by tabs; each view has the whole height and scrolls only its own content;
 * the keyboard reaches and moves between everything by accessible names.
 * Measured with the example workspace open, at a laptop's and a large
 * screen's window.
 */

const grid = (page: Page) => page.getByRole('grid', { name: 'Results' })
const insightsToggle = (page: Page) => page.getByRole('button', { name: 'Statistics and facets', exact: true })

async function search(page: Page, text: string, pageSize = '100'): Promise<void> {
  await page.getByRole('combobox', { name: 'Page size' }).selectOption(pageSize)
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill(text)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(grid(page).getByRole('row').nth(1)).toBeVisible()
}

/** Result rows wholly inside the grid's box and the window, and not under anything else. */
async function visibleRows(page: Page): Promise<number> {
  return grid(page).evaluate((element) => {
    const window = element.ownerDocument.defaultView!
    const box = element.getBoundingClientRect()
    const top = Math.max(box.top, 0)
    const bottom = Math.min(box.bottom, window.innerHeight)
    const rows = [...element.querySelectorAll('[role=row]')].filter((row) => !row.querySelector('[role=columnheader]'))
    return rows.filter((row) => {
      const r = row.getBoundingClientRect()
      if (r.height === 0 || r.top < top - 0.5 || r.bottom > bottom + 0.5) return false
      const hit = element.ownerDocument.elementFromPoint(Math.max(box.left + 4, r.left + 8), r.top + r.height / 2)
      return hit !== null && row.contains(hit)
    }).length
  })
}

/**
 * The page itself never scrolls, either way: neither the document nor any box the top bar sits in has more
 * content than room (a box with overflow hidden still scrolls under the wheel's or a focus's push, taking the
 * top bar and the tabs off screen with it), and the top bar is where it belongs.
 */
async function pageScrolls(page: Page): Promise<{ x: boolean; y: boolean }> {
  return page.getByRole('banner').evaluate((header) => {
    const boxes = [header.parentElement!]
    while (boxes[boxes.length - 1]!.parentElement) boxes.push(boxes[boxes.length - 1]!.parentElement!)
    const over = (axis: 'x' | 'y') =>
      boxes.some((box) => (axis === 'x' ? box.scrollWidth > box.clientWidth || box.scrollLeft > 0 : box.scrollHeight > box.clientHeight || box.scrollTop > 0))
    return { x: over('x'), y: over('y') || header.getBoundingClientRect().top !== 0 }
  })
}

/** Elements inside `root` that scroll (their content overflows a box that scrolls), with `root` itself. */
async function scrollAreas(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const found: string[] = []
    for (const each of [element, ...element.querySelectorAll('*')]) {
      const style = each.ownerDocument.defaultView!.getComputedStyle(each)
      const scrolls = (axis: 'x' | 'y') => {
        const overflow = axis === 'x' ? style.overflowX : style.overflowY
        const more = axis === 'x' ? each.scrollWidth > each.clientWidth + 1 : each.scrollHeight > each.clientHeight + 1
        return (overflow === 'auto' || overflow === 'scroll') && more
      }
      if (scrolls('x') || scrolls('y')) found.push(`${each.tagName.toLowerCase()}.${[...each.classList].join('.')}${scrolls('x') ? ' (sideways)' : ''}`)
    }
    return found
  })
}

test.beforeEach(async ({ app }) => {
  await app.invoke('connections:use', { connectionId: 'demo' })
})

for (const size of [LAPTOP, DESKTOP]) {
  test(`at ${size.width}×${size.height} with the example workspace: at least 12 rows, a name column of 160 px with the side panel open, and every view without a page scroll`, async ({ page, app }) => {
    await openApp(page, app, size)
    await openWorld(page)
    await search(page, 'san')
    const tab = viewTab(page, 'Results')
    await expect(tab).toHaveAttribute('aria-selected', 'true')

    // The side panel folded: the grid has the view's height.
    if ((await insightsToggle(page).getAttribute('aria-expanded')) === 'true') await insightsToggle(page).click()
    await expect(insightsToggle(page)).toHaveAttribute('aria-expanded', 'false')
    await expect.poll(() => visibleRows(page)).toBeGreaterThanOrEqual(12)
    expect(await pageScrolls(page)).toEqual({ x: false, y: false })

    // Open, it keeps the name column readable (at 1024 px it lies over the grid rather than squeezing it).
    await insightsToggle(page).click()
    await expect(page.getByRole('region', { name: 'Statistics' })).toBeVisible()
    const name = (await grid(page).getByRole('columnheader', { name: 'name', exact: true }).boundingBox())!
    expect(name.width).toBeGreaterThanOrEqual(160)
    // …and in view: at least 160 px of it left of the panel (lying over the grid at 1024 px, the name is brought beside Rank).
    const panel = (await page.getByRole('complementary', { name: 'Statistics and facets' }).boundingBox())!
    await expect.poll(async () => Math.min(panel.x, (await grid(page).getByRole('columnheader', { name: 'name', exact: true }).boundingBox())!.x + name.width) - (await grid(page).getByRole('columnheader', { name: 'name', exact: true }).boundingBox())!.x).toBeGreaterThanOrEqual(160)
    await expect.poll(() => visibleRows(page)).toBeGreaterThanOrEqual(12)
    // Its parts scroll up and down, never sideways (the chart's table for screen readers included).
    expect((await scrollAreas(page.getByRole('complementary', { name: 'Statistics and facets' }))).filter((area) => area.endsWith('(sideways)'))).toEqual([])
    expect(await pageScrolls(page)).toEqual({ x: false, y: false })
    await screenshotsBothSizes(page, `workbench-results-panel-${size.width}`)
    await page.setViewportSize(size)
    await insightsToggle(page).click()
    await screenshotsBothSizes(page, `workbench-results-${size.width}`)
    // The README's picture of the saved queries beside the results.
    if (size === DESKTOP) copyFileSync('e2e/output/screens/workbench-results-1440-1440-light.png', 'docs/screenshots/saved-queries.png')
    await page.setViewportSize(size)

    // Each other view: its main content at once, scrolled (if at all) as one area, the page never.
    await showView(page, 'Compare')
    const compare = page.getByRole('region', { name: 'Compare view' })
    await compare.getByRole('button', { name: 'Run comparison' }).click()
    await expect(compare.getByRole('table', { name: /Rank changes/ })).toBeVisible()
    await expect(compare.getByRole('button', { name: 'Run comparison' })).toBeInViewport()
    expect(await pageScrolls(page)).toEqual({ x: false, y: false })
    expect((await scrollAreas(page.getByRole('tabpanel', { name: 'Compare' }))).length).toBeLessThanOrEqual(1)
    await screenshotsBothSizes(page, `workbench-compare-${size.width}`)
    await page.setViewportSize(size)

    await showView(page, 'Tests')
    const tests = page.getByRole('region', { name: 'Tests' })
    await tests.getByRole('button', { name: 'Run tests', exact: true }).click()
    await expect(tests.getByRole('status')).toContainText('9 passed')
    await expect(tests.getByRole('list', { name: 'Test cases' }).getByRole('listitem').first()).toBeInViewport()
    expect(await pageScrolls(page)).toEqual({ x: false, y: false })
    expect((await scrollAreas(page.getByRole('tabpanel', { name: 'Tests' }))).length).toBeLessThanOrEqual(1)
    await screenshotsBothSizes(page, `workbench-tests-${size.width}`)
    await page.setViewportSize(size)

    await showView(page, 'Evaluation')
    const evaluation = page.getByRole('region', { name: 'Evaluation' })
    await evaluation.getByRole('button', { name: 'Evaluate', exact: true }).click()
    await expect(evaluation.getByRole('table', { name: /^Each query's figures/ })).toBeVisible()
    await expect(evaluation.getByRole('button', { name: 'Evaluate', exact: true })).toBeEnabled()
    expect(await pageScrolls(page)).toEqual({ x: false, y: false })
    await screenshotsBothSizes(page, `workbench-evaluation-${size.width}`)
    await page.setViewportSize(size)

    await showView(page, 'Experiments')
    const experiments = page.getByRole('region', { name: 'Experiments', exact: true })
    await experiments.getByRole('button', { name: 'Run experiment' }).click()
    await expect(experiments.getByRole('table', { name: /^Means of A and B/ })).toBeVisible()
    await expect(experiments.getByRole('button', { name: 'Run experiment' })).toBeEnabled()
    expect(await pageScrolls(page)).toEqual({ x: false, y: false })
    // The wheel over the top bar moves nothing.
    await page.getByRole('banner').hover()
    await page.mouse.wheel(0, 600)
    expect(await pageScrolls(page)).toEqual({ x: false, y: false })
    await screenshotsBothSizes(page, `workbench-experiments-${size.width}`)
    await page.setViewportSize(size)

    await showView(page, 'History')
    const history = page.getByRole('region', { name: 'History' })
    await expect(history.getByRole('list', { name: 'Recorded runs' }).getByRole('listitem').first()).toBeInViewport()
    await expect(history.getByRole('searchbox', { name: 'Search history' })).toBeInViewport()
    expect(await pageScrolls(page)).toEqual({ x: false, y: false })
    expect((await scrollAreas(page.getByRole('tabpanel', { name: 'History' }))).length).toBeLessThanOrEqual(1)
    await screenshotsBothSizes(page, `workbench-history-${size.width}`)
  })
}

test('the chosen view is remembered across reloads, and Ctrl+1…6 choose the views', async ({ page, app }) => {
  await openApp(page, app, LAPTOP)
  await showView(page, 'History')
  await expect(page.getByRole('tabpanel', { name: 'History' })).toBeVisible()
  await expect(page.getByRole('tabpanel', { name: 'Results' })).toBeHidden()
  await page.reload()
  await expect(viewTab(page, 'History')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('region', { name: 'History' })).toBeVisible()

  const keys: [string, 'Results' | 'Compare' | 'Tests' | 'Evaluation' | 'Experiments' | 'History'][] = [['1', 'Results'], ['2', 'Compare'], ['3', 'Tests'], ['4', 'Evaluation'], ['5', 'Experiments'], ['6', 'History'], ['1', 'Results']]
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).focus()
  for (const [key, name] of keys) {
    await page.keyboard.press(`Control+${key}`)
    await expect(viewTab(page, name)).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('tabpanel', { name })).toBeVisible()
  }
  // The Compare view is the compare mode: Run there runs the comparison.
  await page.keyboard.press('Control+2')
  await expect(page.getByRole('region', { name: 'Compare view' })).toBeVisible()
  await page.keyboard.press('Control+1')
  await expect(page.getByRole('region', { name: 'Compare view' })).toHaveCount(0)
})

test('the view tabs are one Tab stop, the arrow keys, Home and End move between them', async ({ page, app }) => {
  await openApp(page, app, LAPTOP)
  await viewTab(page, 'Results').focus()
  await page.keyboard.press('ArrowRight')
  await expect(viewTab(page, 'Compare')).toBeFocused()
  await expect(viewTab(page, 'Compare')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('End')
  await expect(viewTab(page, 'History')).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(viewTab(page, 'Results')).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await expect(viewTab(page, 'History')).toBeFocused()
  await page.keyboard.press('Home')
  await expect(viewTab(page, 'Results')).toBeFocused()
  await expect(viewTab(page, 'Results')).toHaveAttribute('aria-selected', 'true')
  // Only the chosen tab is in the Tab order.
  expect(await page.getByRole('tab', { selected: false }).evaluateAll((tabs) => tabs.filter((t) => t.closest('[aria-label=Views]')).map((t) => t.getAttribute('tabindex')))).toEqual(['-1', '-1', '-1', '-1', '-1'])
})

test('"Skip to results" is the first Tab stop and brings the focus to the Results view', async ({ page, app }) => {
  await openApp(page, app, LAPTOP)
  await search(page, 'san', '10')
  await showView(page, 'History')
  // A fresh page, as the user finds it: the view chosen last (History) and nothing focused.
  await page.reload()
  await expect(viewTab(page, 'History')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to results' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(viewTab(page, 'Results')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel', { name: 'Results' })).toBeFocused()
  // The next Tab is in the Results view, not 50 stops away.
  await page.keyboard.press('Tab')
  expect(await page.evaluate("!!document.activeElement?.closest('#view-panel-results')")).toBe(true)
})

test('the saved-queries list is one Tab stop: arrow keys move through queries and their actions, Enter loads', async ({ page, app }) => {
  await openApp(page, app, DESKTOP)
  await openWorld(page)
  const list = page.getByRole('list', { name: 'Queries in this workspace' })
  const picks = list.getByRole('listitem')
  const count = await picks.count()
  expect(count).toBeGreaterThanOrEqual(3)
  const names = await list.locator('.saved__query-name').allTextContents()

  // Tab from the control before the list lands on its first query, and the next Tab leaves the list.
  const first = picks.nth(0).getByRole('button', { name: names[0]! })
  await first.focus()
  await page.keyboard.press('Tab')
  expect(await page.evaluate("!!document.activeElement?.closest('[aria-label=\"Queries in this workspace\"]')")).toBe(false)
  await page.keyboard.press('Shift+Tab')
  await expect(first).toBeFocused()

  await page.keyboard.press('ArrowDown')
  const second = picks.nth(1).getByRole('button', { name: names[1]! })
  await expect(second).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(picks.nth(1).getByRole('button', { name: 'Rename' })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(picks.nth(1).getByRole('button', { name: 'Duplicate' })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(picks.nth(1).getByRole('button', { name: 'Delete' })).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect(second).toBeFocused()
  await page.keyboard.press('End')
  await expect(picks.nth(count - 1).getByRole('button', { name: names[count - 1]! })).toBeFocused()
  await page.keyboard.press('Home')
  await expect(first).toBeFocused()
  await page.keyboard.press('ArrowDown')
  // Enter loads the query: it becomes the current one.
  await page.keyboard.press('Enter')
  await expect(second).toHaveAttribute('aria-current', 'true')
  // Every control of the list but one is out of the Tab order.
  expect(await list.getByRole('button').evaluateAll((buttons) => buttons.filter((b) => b.getAttribute('tabindex') === '0').length)).toBe(1)
})

test('at 1024 px the side panel opens over the grid with a close button; Escape closes it and the focus goes back to its toggle', async ({ page, app }) => {
  await openApp(page, app, LAPTOP)
  await search(page, 'san', '10')
  const toggle = insightsToggle(page)
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  const before = (await grid(page).boundingBox())!
  await toggle.click()
  const close = page.getByRole('button', { name: 'Close side panel' })
  await expect(close).toBeFocused()
  // Over the grid: the grid keeps its width (it does not give way to the panel).
  expect((await grid(page).boundingBox())!.width).toBeGreaterThanOrEqual(before.width)
  await page.keyboard.press('Escape')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(toggle).toBeFocused()
  await toggle.click()
  await close.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(toggle).toBeFocused()
})

test('a facet filter step fits the chain column: the column never scrolls sideways', async ({ page, app }) => {
  await openApp(page, app, LAPTOP)
  await search(page, 'san', '10')
  await insightsToggle(page).click()
  await page.getByRole('group', { name: 'country' }).getByRole('checkbox', { name: 'Italy' }).check()
  await expect(page.getByRole('group', { name: 'Step 2' })).toBeVisible()
  const column = page.getByRole('complementary', { name: 'Query' })
  expect((await scrollAreas(column)).filter((area) => area.endsWith('(sideways)'))).toEqual([])
  // The step's every tool lies inside its card, and the card inside the column's scroll area.
  const step2 = page.getByRole('group', { name: 'Step 2' })
  const card = (await step2.boundingBox())!
  const scroller = (await column.locator('.sidebar__scroll').evaluate((element) => {
    const r = element.getBoundingClientRect()
    return { right: r.left + element.clientWidth }
  }))
  expect(card.x + card.width).toBeLessThanOrEqual(scroller.right)
  for (const name of ['Step on', 'Move up', 'Move down', 'Remove step']) {
    const tool = (await step2.getByRole(name === 'Step on' ? 'switch' : 'button', { name }).boundingBox())!
    expect(tool.x + tool.width, name).toBeLessThanOrEqual(card.x + card.width - 1)
  }
  await screenshotsBothSizes(page, 'workbench-facet-step')
})

test('a toast after Save query lies over the foot of the chain only, covering no other control', async ({ page, app }) => {
  for (const size of [LAPTOP, DESKTOP]) {
    await openApp(page, app, size)
    await search(page, 'san', '10')
    await page.getByRole('button', { name: 'Save query' }).click()
    // The first time it asks a name; then it saves the query the editor holds.
    if (size === LAPTOP) await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
    const toast = page.getByRole('status').filter({ hasText: 'Save the workspace' })
    await expect(toast).toBeVisible()
    const box = (await toast.boundingBox())!
    // No button, box or link of the page lies under it, but the chain's own: notes lie over the foot of the chain
    // column rather than pushing it up (three failures once left it one card header; ToastStack.vue).
    const covered: string[] = await page.locator('body').evaluate(
      (body, [x, y, w, h]) => {
        const hit: string[] = []
        const getComputedStyle = (element: typeof body) => body.ownerDocument.defaultView!.getComputedStyle(element)
        for (const control of body.querySelectorAll('button, input, select, textarea, a[href], [role=tab], [role=row]')) {
          if (control.closest('.toasts') || control.closest('.sidebar__scroll')) continue
          // The part of it that shows: clipped by every box around it that scrolls or hides its overflow.
          let { left, right, top, bottom } = control.getBoundingClientRect()
          for (let box = control.parentElement; box; box = box.parentElement) {
            if (getComputedStyle(box).overflow === 'visible') continue
            const clip = box.getBoundingClientRect()
            left = Math.max(left, clip.left)
            right = Math.min(right, clip.right)
            top = Math.max(top, clip.top)
            bottom = Math.min(bottom, clip.bottom)
          }
          if (right <= left || bottom <= top) continue
          if (left < x + w && right > x && top < y + h && bottom > y) hit.push(control.getAttribute('aria-label') ?? control.textContent?.trim().slice(0, 30) ?? control.tagName)
        }
        return hit
      },
      [box.x, box.y, box.width, box.height] as const,
    )
    expect(covered, `${size.width}×${size.height}`).toEqual([])
    if (size === LAPTOP) await screenshotsBothSizes(page, 'workbench-toast')
    await page.getByRole('button', { name: 'Dismiss' }).click()
  }
})
