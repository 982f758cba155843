import { defineConfig } from '@playwright/test'

/** Chromium flags for a machine with no network beyond loopback and no GPU. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export default defineConfig({
  testDir: 'e2e',
  // Fails the run when a test leaves a process running (test/fixtures/process-leaks.ts).
  globalSetup: './e2e/fixtures/process-leaks-setup.ts',
  globalTeardown: './e2e/fixtures/process-leaks-teardown.ts',
  outputDir: 'e2e/output/test-results',
  // Hang guards, not measures of speed: no test races a clock, so a slow or loaded machine only takes longer.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1360, height: 820 },
    launchOptions: { executablePath: process.env.QE_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'browser-host', testIgnore: /electron\.spec\.ts/ },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
})
