import { configDefaults, defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Component tests run in Chromium with their own config (vitest.components.config.mts).
    exclude: [...configDefaults.exclude, 'test/components/**'],
    // Guards against a hang, never a measure of speed: generous, so a machine whose cores are busy still passes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Fails the run when a test leaves a process running (test/fixtures/process-leaks.ts).
    globalSetup: ['test/fixtures/process-leaks.ts'],
    setupFiles: ['test/fixtures/stop-groups.ts'],
  },
})
