import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { CHROMIUM_ARGS } from '../playwright.config'
import { launchApp } from '../e2e/fixtures/launch-app'
import { atMost, runWhenMain, type BenchResult } from './result'
import { median, percentile } from './stats'
import { LOAD_IN_FLIGHT } from '../src/shared/results/paging'

/**
 * The explorer screen in Chromium against the embedded service, through the
 * built browser host (`npx electron-vite build` first):
 * - page load → the Endpoint box usable, beside the page's own first paint
 *   and a blank page's;
 * - Run → rows painted for a 100-row page, split by the app's own marks
 *   (qe:run at the press, qe:reply when the answers are in, qe:painted a
 *   frame after the grid rendered them) into network time and the rest,
 *   beside the same rows put in the page as static markup;
 * - Load more to 10,000 rows;
 * - frame times while scrolling through 10,000 loaded rows.
 * Each figure an aim of issue 26 names is judged with it, in the same run.
 */

const HOST = join(__dirname, '../out/main/browser-host.js')
const QUERIES = ['san', 'sant', 'santa', 'mar', 'la', 'ber', 'city', 'ville', 'port', 'new', 'saint', 'lake']

function startHost(): Promise<{ url: string; pageUrl: () => Promise<string>; close: () => Promise<void> }> {
  return launchApp([], 'bench')
}

/** Page loads measured, each in a fresh browser context (no cache: as the app starts). */
const LOADS = 3

/**
 * Runs in the page before its own scripts: notes when the first step's
 * Endpoint box is in the page, enabled, writable and laid out, and when a
 * frame later it is painted (as qe:painted is marked), in the page's time
 * (0 is the navigation's start). The bench then finds the box by role and
 * name, as the e2e tests do, and checks it is the element noted.
 */
const WATCH_ENDPOINT = `(() => {
  const usable = () => {
    const box = document.querySelector('fieldset[aria-label="Step 1"] input[aria-label="Endpoint"]')
    return box && !box.disabled && !box.readOnly && box.getClientRects().length > 0 ? box : null
  }
  const observer = new MutationObserver(() => {
    const box = usable()
    if (!box || window.__endpoint) return
    observer.disconnect()
    window.__endpoint = { box, at: performance.now() }
    requestAnimationFrame(() => setTimeout(() => (window.__endpoint.painted = performance.now()), 0))
  })
  observer.observe(document, { childList: true, subtree: true, attributes: true })
})()`

interface PageLoad {
  /** The Endpoint box painted, usable. */
  endpoint: number
  domContentLoaded: number
  firstPaint: number
}

/** Opens the app in a fresh context and times it up to the Endpoint box painted and usable. */
async function timePageLoad(browser: Browser, url: string): Promise<PageLoad> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 820 } })
  try {
    const page = await context.newPage()
    await page.addInitScript(WATCH_ENDPOINT)
    await page.goto(url)
    // Strings, not functions, for what reads the page's globals: this file is typed without the DOM.
    await page.waitForFunction(() => (globalThis as { __endpoint?: { painted?: number } }).__endpoint?.painted !== undefined, undefined, { timeout: 30_000 })
    const endpoint = page.getByRole('group', { name: 'Step 1' }).getByRole('combobox', { name: 'Endpoint' })
    if (!(await endpoint.isEditable()) || !(await endpoint.evaluate((box) => box === (globalThis as { __endpoint?: { box: unknown } }).__endpoint?.box))) {
      throw new Error('the box timed is not the Endpoint combobox of step 1, or it does not take input')
    }
    return (await page.evaluate(`({
      endpoint: window.__endpoint.painted,
      domContentLoaded: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
      firstPaint: performance.getEntriesByName('first-paint')[0]?.startTime ?? NaN,
    })`)) as PageLoad
  } finally {
    await context.close()
  }
}

/** The browser's floor: a blank page with one text box, from the navigation's start to the box painted, marked the same way. */
async function timeBlankPage(browser: Browser): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 820 } })
  try {
    const page = await context.newPage()
    await page.goto(
      `data:text/html,${encodeURIComponent('<!doctype html><title>blank</title><input aria-label="Endpoint"><script>requestAnimationFrame(() => setTimeout(() => (window.__painted = performance.now()), 0))</script>')}`,
    )
    await page.waitForFunction(() => (globalThis as { __painted?: number }).__painted !== undefined)
    return (await page.evaluate('window.__painted')) as number
  } finally {
    await context.close()
  }
}

/** One press of Run: milliseconds from the press to the answers, and from the answers to the rows painted. */
async function timeRun(page: Page, text: string): Promise<{ network: number; render: number }> {
  await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill(text)
  await page.evaluate('performance.clearMarks()')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  // A function, not a string: the app's content security policy forbids evaluating strings.
  await page.waitForFunction(() => performance.getEntriesByName('qe:painted').length > 0 && performance.getEntriesByName('qe:reply').length > 0, undefined, {
    timeout: 20_000,
  })
  const [run, reply, painted] = (await page.evaluate(
    "['qe:run', 'qe:reply', 'qe:painted'].map((name) => performance.getEntriesByName(name).at(-1).startTime)",
  )) as [number, number, number]
  return { network: reply - run, render: painted - reply }
}

/** Scrolls a scroller from top to bottom, 400 px per frame, and returns each frame's duration. */
const scrollScript = (selector: string) => `new Promise((resolve) => {
  const grid = document.querySelector(${JSON.stringify(selector)})
  grid.scrollTop = 0
  const frames = []
  let last = performance.now()
  const step = () => {
    const now = performance.now()
    frames.push(now - last)
    last = now
    if (grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1) return resolve(frames.slice(1))
    grid.scrollTop += 400
    requestAnimationFrame(step)
  }
  setTimeout(() => requestAnimationFrame(step), 300)
})`
const GRID = '[role=grid][aria-label=Results]'
const PASSES = 3

/**
 * The rows the grid shows, as the grid wrote them (its markup, its cell
 * texts): scrolled through, as only the rows in view are in the page. The
 * header row first.
 */
async function gridMarkup(page: Page): Promise<string[]> {
  return (await page.evaluate(`(async () => {
    const grid = document.querySelector(${JSON.stringify(GRID)})
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    const rows = new Map()
    for (let top = 0; ; top += grid.clientHeight / 2) {
      grid.scrollTop = top
      await frame()
      for (const row of grid.querySelectorAll('[role=row][aria-rowindex]')) rows.set(Number(row.getAttribute('aria-rowindex')), row.outerHTML)
      if (grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1) break
    }
    grid.scrollTop = 0
    await frame()
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, html]) => html)
  })()`)) as string[]
}

/**
 * The baseline of Run → rows painted: the same rows, header included, as
 * static markup built beforehand in a detached box the grid's size and
 * styles (every row laid out, none virtual), put over the grid; timed from
 * its insertion to a frame later, marked as qe:painted is (the task after
 * the next animation frame), `times` times.
 */
async function staticPaints(page: Page, rows: string[], times: number): Promise<number[]> {
  return (await page.evaluate(`(async () => {
    const grid = document.querySelector(${JSON.stringify(GRID)})
    const rect = grid.getBoundingClientRect()
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)))
    const [head, ...body] = ${JSON.stringify(rows)}
    const out = []
    for (let i = 0; i < ${times}; i++) {
      // The grid's own box (its class, sizes and column sheet scope), without its role, name or rows.
      const box = grid.cloneNode(false)
      for (const name of ['role', 'aria-label', 'aria-readonly', 'aria-rowcount', 'aria-describedby', 'tabindex']) box.removeAttribute(name)
      Object.assign(box.style, { position: 'fixed', left: rect.left + 'px', top: rect.top + 'px', width: rect.width + 'px', height: rect.height + 'px', zIndex: '10' })
      box.innerHTML = '<div class="grid__head">' + head + '</div><div class="grid__body"><div class="grid__window">' + body.join('') + '</div></div>'
      await frame()
      const start = performance.now()
      document.body.append(box)
      // As the grid marks after Vue's nextTick: a microtask after the rows are in the page.
      await Promise.resolve()
      out.push((await frame()) - start)
      box.remove()
      await frame()
    }
    return out
  })()`)) as number[]
}

/**
 * The baselines, in the same browser: a scroller as tall as 10,000 rows with
 * nothing in it (what scrolling costs on this machine at all), and 10,000
 * plain rows of the same shape all in the page (the grid without virtual
 * scrolling).
 */
async function baselineFrames(page: Page, withRows: boolean): Promise<number[]> {
  const row = (i: number) =>
    `<div class=r><span>${i + 1}</span><span>0.${String(9999 - i).padStart(4, '0')}</span><span>${3_500_000 + i}</span><span>city</span><span>City number ${i}</span><span>${i * 37}</span><span>Country ${i % 50}</span><span>${i % 7}</span></div>`
  const body = withRows ? Array.from({ length: 10_000 }, (_, i) => row(i)).join('') : '<div style="height: 340000px"></div>'
  await page.setContent(
    `<style>body{margin:0;font:14px sans-serif} #s{height:560px;width:920px;overflow:auto;contain:strict} .r{display:flex;height:33px;border-bottom:1px solid #ddd} .r span{flex:none;width:110px;padding:0 10px;line-height:33px;overflow:hidden;white-space:nowrap}</style><div id=s>${body}</div>`,
  )
  return scrollPasses(page, '#s')
}

/** Every frame of PASSES scrolls through the scroller `selector` names. */
async function scrollPasses(page: Page, selector: string): Promise<number[]> {
  const frames: number[] = []
  for (let pass = 0; pass < PASSES; pass++) frames.push(...((await page.evaluate(scrollScript(selector))) as number[]))
  return frames
}

function frameFigures(label: string, frames: number[], note: string): BenchResult[] {
  const over = frames.filter((f) => f > 32).length
  return [
    { name: `renderer: scroll ${label}, p95 frame`, value: Math.round(percentile(frames, 0.95) * 10) / 10, unit: 'ms', note },
    { name: `renderer: scroll ${label}, frames over 32 ms`, value: over, unit: `of ${frames.length}`, note: `worst ${Math.round(Math.max(...frames) * 10) / 10} ms` },
  ]
}

export async function benchRenderer(): Promise<BenchResult[]> {
  if (!existsSync(HOST)) {
    return [{ name: 'renderer', value: 0, unit: '-', note: 'skipped: run `npx electron-vite build` first' }]
  }
  const host = await startHost()
  const browser = await chromium.launch({ executablePath: process.env.QE_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  try {
    const blank = await timeBlankPage(browser)
    const loads: PageLoad[] = []
    for (let i = 0; i < LOADS; i++) loads.push(await timePageLoad(browser, i === 0 ? host.url : await host.pageUrl()))

    const page = await browser.newPage({ viewport: { width: 1360, height: 820 } })
    await page.goto(await host.pageUrl())
    await page.getByRole('combobox', { name: 'Page size' }).selectOption('100')
    await timeRun(page, 'warm up')
    const runs: { network: number; render: number }[] = []
    for (const text of QUERIES) runs.push(await timeRun(page, text))
    const shownRows = await gridMarkup(page)
    const statics = await staticPaints(page, shownRows, QUERIES.length)

    await page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'query' }).fill('san la mar de')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(1).waitFor()
    const loadStart = Date.now()
    await page.getByRole('combobox', { name: 'Load how many' }).selectOption('10000')
    await page.getByRole('button', { name: 'Load more' }).click()
    // The summary, the pager's range and its live region all say it: any one will do.
    await page.getByText(/^Rows 1–10,000 of/).first().waitFor({ timeout: 120_000 })
    const loadMs = Date.now() - loadStart
    const frames = await scrollPasses(page, GRID)

    const baseline = await browser.newPage({ viewport: { width: 1360, height: 820 } })
    const empty = await baselineFrames(baseline, false)
    const plain = await baselineFrames(baseline, true)

    const render = runs.map((r) => r.render)
    const renderMs = Math.round(median(render) * 10) / 10
    const staticMs = Math.round(median(statics) * 10) / 10
    const ratio = Math.round((median(render) / median(statics)) * 100) / 100
    const endpointMs = Math.round(median(loads.map((l) => l.endpoint)))
    const over = frames.filter((f) => f > 32).length
    const round = (ms: number) => Math.round(ms)
    return [
      {
        name: 'renderer: page load → Endpoint box usable',
        value: endpointMs,
        unit: 'ms',
        note: `median of ${LOADS} fresh loads, from the navigation's start to the box painted; each: ${loads.map((l) => round(l.endpoint)).join(', ')} ms`,
        aim: atMost(endpointMs, 400, 'ms'),
      },
      {
        name: 'renderer: page load baseline: the same page\'s first paint, DOMContentLoaded',
        value: round(median(loads.map((l) => l.firstPaint))),
        unit: 'ms',
        note: `DOMContentLoaded ${round(median(loads.map((l) => l.domContentLoaded)))} ms; a blank page with one box, painted: ${round(blank)} ms`,
      },
      { name: 'renderer: Run → 100 rows painted, beyond network', value: renderMs, unit: 'ms', note: `median of ${runs.length}; worst ${Math.round(Math.max(...render))} ms`, aim: atMost(renderMs, 25, 'ms') },
      { name: 'renderer: Run → 100 rows painted, network part', value: Math.round(median(runs.map((r) => r.network)) * 10) / 10, unit: 'ms', note: 'results + statistics, through the main process' },
      {
        name: 'renderer: baseline: the same 100 rows as static markup, inserted → painted',
        value: staticMs,
        unit: 'ms',
        note: `median of ${statics.length}, the grid's markup and styles (${shownRows.length - 1} rows and the header, all laid out), built beforehand, timed as qe:painted is`,
      },
      { name: 'renderer: Run → rows painted, grid / static markup', value: ratio, unit: '×', note: 'beyond network, medians', aim: atMost(ratio, 2, '×') },
      {
        name: 'renderer: load 10,000 rows (100 pages of 100)',
        value: loadMs,
        unit: 'ms',
        note: `${LOAD_IN_FLIGHT} requests on the way at once, rows applied in order at most once a frame, progress shown`,
        aim: atMost(loadMs, 1500, 'ms'),
      },
      ...frameFigures('10,000 rows in the grid', frames, `${PASSES} passes, 400 px a frame`).map((figure) =>
        figure.name.endsWith('frames over 32 ms') ? { ...figure, aim: atMost(over, 5) } : figure,
      ),
      ...frameFigures('baseline: empty scroller', empty, 'the machine\'s floor'),
      ...frameFigures('baseline: 10,000 plain rows, not virtual', plain, 'what the grid would cost without virtual scrolling'),
      { name: 'renderer: scroll p95 ratio, grid / plain rows', value: Math.round((percentile(frames, 0.95) / percentile(plain, 0.95)) * 100) / 100, unit: '×', note: 'below 1: the grid scrolls better than static rows' },
    ]
  } finally {
    await browser.close()
    await host.close()
  }
}

runWhenMain(__filename, benchRenderer)
