import { truncateSync, writeFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { serializeWorkspace } from '../src/shared/workspace/workspace-file'
import { BIG_SET, bigWorkspace } from '../test/fixtures/big-workspace'
import { expect, test } from './fixtures/app'
import { DESKTOP, openApp } from './fixtures/laptop'
import { showView } from './fixtures/workbench'

/**
 * A workspace file at the schema's limits opened in the window (browser
 * host, real Chromium, by accessible names): 10,000 queries and 200,000
 * judgments, 15 MiB as the app writes it, crosses the page in parts through
 * the host's upload route with the workspace file's own 32 MiB bound (it was
 * refused when it travelled as one message of at most 5 MiB), and its sets
 * are there. A file over the bound is refused in words that give its size and
 * the bound, and the open workspace stays.
 */

const saved = (page: Page) => page.getByRole('region', { name: 'Saved queries' })
const MIB = 1024 * 1024

async function openFile(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser')
  await saved(page).getByRole('button', { name: 'Open workspace' }).click()
  await page.getByRole('menuitem', { name: 'Open file…' }).click()
  await (await chooser).setFiles(path)
}

test('opens a 15 MiB workspace of 10,000 queries and 200,000 judgments, and refuses one over 32 MiB in words', async ({ page, app }, testInfo) => {
  test.setTimeout(180_000)
  const path = testInfo.outputPath('at-limits.qxw.json')
  writeFileSync(path, serializeWorkspace(bigWorkspace()))
  await openApp(page, app, DESKTOP)

  await openFile(page, path)
  await expect(saved(page).getByRole('heading')).toHaveText('at-limits', { timeout: 60_000 })
  await showView(page, 'Evaluation')
  const view = page.getByRole('region', { name: 'Evaluation' })
  await view.getByRole('combobox', { name: 'Query set' }).selectOption(BIG_SET)
  await expect(view).toContainText(/10,?000 queries · 200,?000 judgments/)

  const tooLarge = testInfo.outputPath('too-large.qxw.json')
  writeFileSync(tooLarge, '')
  truncateSync(tooLarge, 32 * MIB + 1)
  await openFile(page, tooLarge)
  await expect(page.getByRole('alert').filter({ hasText: 'too-large.qxw.json' })).toContainText(
    '"too-large.qxw.json" holds 33,554,433 bytes (32.0 MiB); a workspace file may hold at most 32.0 MiB (33,554,432 bytes), so it was not opened.',
  )
  await expect(page.getByRole('alert').filter({ hasText: 'too-large.qxw.json' })).not.toContainText('413')
  await expect(saved(page).getByRole('heading')).toHaveText('at-limits')
})
