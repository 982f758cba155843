import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { CHROMIUM_ARGS } from '../playwright.config'
import { launchApp } from '../e2e/fixtures/launch-app'
import type { BenchResult } from './result'
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

/** Scrolls the grid from top to bottom, a screenful or so per frame, and returns each frame's duration. */
const SCROLL_SCRIPT = `new Promise((resolve) => {
  const grid = document.querySelector('[role=table][aria-label=Results]')
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
  requestAnimationFrame(step)
})`

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
    await page.getByRole('table', { name: 'Results' }).getByRole('row').nth(1).waitFor()
    const loadStart = Date.now()
    await page.getByRole('combobox', { name: 'Load how many' }).selectOption('10000')
    await page.getByRole('button', { name: 'Load more' }).click()
    await page.getByText(/^Rows 1–10,000 of/).waitFor({ timeout: 120_000 })
    const loadMs = Date.now() - loadStart
    const frames = (await page.evaluate(SCROLL_SCRIPT)) as number[]

    const render = runs.map((r) => r.render)
    return [
      { name: 'renderer: Run → 100 rows painted, beyond network', value: Math.round(median(render) * 10) / 10, unit: 'ms', note: `median of ${runs.length}; worst ${Math.round(Math.max(...render))} ms; aim < 50` },
      { name: 'renderer: Run → 100 rows painted, network part', value: Math.round(median(runs.map((r) => r.network)) * 10) / 10, unit: 'ms', note: 'results + statistics, through the main process' },
      { name: 'renderer: load 10,000 rows (100 pages of 100)', value: loadMs, unit: 'ms', note: 'sequential requests, progress shown' },
      { name: 'renderer: scroll 10,000 rows, worst frame', value: Math.round(Math.max(...frames) * 10) / 10, unit: 'ms', note: `${frames.length} frames; aim: none over 32 ms` },
      { name: 'renderer: scroll 10,000 rows, p95 frame', value: Math.round(percentile(frames, 0.95) * 10) / 10, unit: 'ms', note: `${frames.filter((f) => f > 32).length} frames over 32 ms` },
    ]
  } finally {
    await browser.close()
    await host.close()
  }
}
