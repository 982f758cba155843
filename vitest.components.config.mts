import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'
import { playwright } from '@vitest/browser-playwright'
import { CHROMIUM_ARGS } from './playwright.config'

/**
 * Component tests: real Vue components mounted in Debian's Chromium (never a
 * downloaded browser), found by role and name as users and screen readers
 * find them. `npx vitest run -c vitest.components.config.mts`.
 */
export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/components/**/*.test.ts'],
    testTimeout: 20_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: { executablePath: process.env.QE_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
      }),
      instances: [{ browser: 'chromium' }],
      // Failure screenshots would land beside the tests; the failure message and the DOM say enough.
      screenshotFailures: false,
    },
  },
})
