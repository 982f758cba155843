import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'

const require = createRequire(__filename)
const { electronRuntime } = require('../scripts/electron-runtime.cjs') as {
  electronRuntime: () => { path: string | null; reason: string | null }
}
const runtime = electronRuntime()

const skipReason = `Electron spec skipped: ${runtime.reason ?? ''}`
// The list reporter does not print skip annotations, so the reason is said here too.
if (!runtime.path) process.stdout.write(`${skipReason}\n`)
test.skip(!runtime.path, skipReason)

test('the Electron window runs a search through the preload bridge', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qe-electron-'))
  const app = await electron.launch({
    executablePath: runtime.path!,
    args: ['.', '--no-sandbox'],
    env: { ...process.env, QE_DATA_DIR: dataDir, QE_KEYCHAIN_SERVICE: `query-explorer-e2e-${process.pid}` },
  })
  try {
    const page = await app.firstWindow()
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined')
    // Loaded from file://, the window has only index.html's own policy: an inline script must not run.
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toContain("script-src 'self'")
    // An inline script the policy allows runs as it is appended; one it refuses is reported by a securitypolicyviolation
    // event: the answer is in once either has happened.
    const inlineRan = await page.evaluate(`(async () => {
      const refused = new Promise((resolve) =>
        document.addEventListener('securitypolicyviolation', (event) => event.effectiveDirective === 'script-src-elem' && resolve()),
      )
      const script = document.createElement('script')
      script.textContent = 'window.__inlineRan = true'
      document.head.append(script)
      if (window.__inlineRan !== true) await refused
      return window.__inlineRan === true
    })()`)
    expect(inlineRan).toBe(false)
    const step = page.getByRole('group', { name: 'Step 1' })
    await step.getByRole('textbox', { name: 'query' }).fill('paris')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(1)).toBeVisible()
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
})
