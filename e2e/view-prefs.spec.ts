import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, launchApp, test } from './fixtures/app'
import { DESKTOP, openApp } from './fixtures/laptop'
import { showView, viewTab } from './fixtures/workbench'

/**
 * The browser host starts on a new port each time, so its page has a new
 * origin and none of the last page's storage: the open panels, the view and
 * the theme come back from the app's data folder instead.
 */

const insightsToggle = (page: Page) => page.getByRole('button', { name: 'Statistics and facets' })
const theme = (page: Page) => page.getByRole('radiogroup', { name: 'Theme' })

test('after a restart on the same data folder, the side panel’s open state, the chosen view and the theme come back', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qe-view-prefs-'))
  let host = await launchApp([], 'view-prefs', { dataDir })
  try {
    await page.emulateMedia({ colorScheme: 'light' })
    await openApp(page, host, DESKTOP)
    // A large screen starts with the panel open, on the Results view, in the system's theme.
    await expect(insightsToggle(page)).toHaveAttribute('aria-expanded', 'true')
    await expect(theme(page).getByRole('radio', { name: 'System' })).toBeChecked()
    await insightsToggle(page).click()
    await expect(insightsToggle(page)).toHaveAttribute('aria-expanded', 'false')
    await theme(page).getByRole('radio', { name: 'Dark' }).check()
    await showView(page, 'Tests')
    // Kept by the app, not only by this page.
    await expect
      .poll(() => JSON.parse(readFileSync(join(dataDir, 'view-prefs.json'), 'utf8')).prefs)
      .toEqual({ theme: 'dark', view: 'tests', folds: { insights: { wide: false } } })
    const before = new URL(page.url()).origin
    await host.close()

    host = await launchApp([], 'view-prefs', { dataDir })
    await openApp(page, host, DESKTOP)
    expect(new URL(page.url()).origin).not.toBe(before)
    await expect(viewTab(page, 'Tests')).toHaveAttribute('aria-selected', 'true')
    await expect(theme(page).getByRole('radio', { name: 'Dark' })).toBeChecked()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    await showView(page, 'Results')
    await expect(insightsToggle(page)).toHaveAttribute('aria-expanded', 'false')
    await expect(page.getByRole('region', { name: 'Statistics' })).toBeHidden()

    // And back: the panel opened again stays open through the next restart.
    await insightsToggle(page).click()
    await expect(insightsToggle(page)).toHaveAttribute('aria-expanded', 'true')
    await expect.poll(() => JSON.parse(readFileSync(join(dataDir, 'view-prefs.json'), 'utf8')).prefs.folds).toEqual({ insights: { wide: true } })
    await host.close()
    host = await launchApp([], 'view-prefs', { dataDir })
    await openApp(page, host, DESKTOP)
    await expect(viewTab(page, 'Results')).toHaveAttribute('aria-selected', 'true')
    await expect(insightsToggle(page)).toHaveAttribute('aria-expanded', 'true')
  } finally {
    await host.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
})
