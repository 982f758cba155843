import { expect, test } from './fixtures/app'

// The policy travels in index.html itself (the Electron window, loaded from file://, has no header to carry it),
// so the built page must refuse what the policy refuses whichever host serves it.
test('the page runs only the app\'s own scripts: no inline script, no eval, no foreign connection', async ({ page, app }) => {
  await page.goto(await app.pageUrl())
  await expect(page.getByRole('group', { name: 'Step 1' })).toBeVisible()
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')
  expect(policy).toContain("script-src 'self'")
  // Code that DevTools evaluates is exempt from the eval rule, so that rule is checked in the policy's text.
  expect(policy).not.toContain('unsafe-eval')

  // A string, not a function: the e2e tsconfig has no DOM types.
  const refused = (await page.evaluate(`(async () => {
    window.__violations = []
    document.addEventListener('securitypolicyviolation', (event) => window.__violations.push(event.effectiveDirective))
    const script = document.createElement('script')
    script.textContent = 'window.__inlineRan = true'
    document.head.append(script)
    const fetched = await fetch('http://203.0.113.9/').then(() => true, () => false)
    return { inlineRan: window.__inlineRan === true, fetched }
  })()`)) as { inlineRan: boolean; fetched: boolean }
  expect(refused.inlineRan).toBe(false)
  expect(refused.fetched).toBe(false)
  // The violation reports are events of their own, dispatched a moment later: wait until both are in.
  // Polled with page.evaluate (DevTools' evaluation is exempt from the page's no-eval policy; waitForFunction's polling is not).
  await expect.poll(() => page.evaluate('window.__violations')).toEqual(expect.arrayContaining(['script-src-elem', 'connect-src']))
})
