import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { CHROMIUM_ARGS } from '../playwright.config'
import { launchApp } from '../e2e/fixtures/launch-app'
import { runWhenMain, type BenchResult } from './result'
import { median, percentile } from './stats'

/**
 * The explorer screen in Chromium against the embedded service, through the
 * built browser host (`npx electron-vite build` first):
 * - Run → rows painted for a 100-row page, split by the app's own marks
 *   (qe:run at the press, qe:reply when the answers are in, qe:painted a
 *   frame after the grid rendered them) into network time and the rest;
 * - frame times while scrolling through 10,000 loaded rows.
 */

const HOST = join(__dirname, '../out/main/browser-host.js')
const QUERIES = ['san', 'sant', 'santa', 'mar', 'la', 'ber', 'city', 'ville', 'port', 'new', 'saint', 'lake']

function startHost(): Promise<{ url: string; close: () => Promise<void> }> {
  return launchApp([], 'bench')
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
    const page = await browser.newPage({ viewport: { width: 1360, height: 820 } })
    await page.goto(host.url)
    await page.getByRole('combobox', { name: 'Page size' }).selectOption('100')
    await timeRun(page, 'warm up')
    const runs: { network: number; render: number }[] = []
    for (const text of QUERIES) runs.push(await timeRun(page, text))

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
    return [
      { name: 'renderer: Run → 100 rows painted, beyond network', value: Math.round(median(render) * 10) / 10, unit: 'ms', note: `median of ${runs.length}; worst ${Math.round(Math.max(...render))} ms; aim < 50` },
      { name: 'renderer: Run → 100 rows painted, network part', value: Math.round(median(runs.map((r) => r.network)) * 10) / 10, unit: 'ms', note: 'results + statistics, through the main process' },
      { name: 'renderer: load 10,000 rows (100 pages of 100)', value: loadMs, unit: 'ms', note: 'sequential requests, progress shown' },
      ...frameFigures('10,000 rows in the grid', frames, `${PASSES} passes, 400 px a frame; aim: no frame over 32 ms`),
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
