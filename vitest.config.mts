import { configDefaults, defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

/**
 * Pure tests (test/shared: functions of src/shared, which may not touch Node
 * or the DOM, and the repository's own layout checks) hold no state between
 * files, so they share worker threads and skip the per-file fresh start: the
 * same 61 files took 37 s that way against 136 s each in its own process, on
 * the same busy machine. Everything else starts servers, workers, keychains
 * and processes, and keeps a process per file.
 */
const pure = ['test/shared/**/*.test.ts', 'test/*.test.ts']

export default defineConfig({
  plugins: [vue()],
  test: {
    // Guards against a hang, never a measure of speed: generous, so a machine whose cores are busy still passes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Fails the run when a test leaves a process running (test/fixtures/process-leaks.ts).
    globalSetup: ['test/fixtures/process-leaks.ts'],
    setupFiles: ['test/fixtures/stop-groups.ts'],
    projects: [
      { extends: true, test: { name: 'pure', include: pure, pool: 'threads', isolate: false } },
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          // Component tests run in Chromium with their own config (vitest.components.config.mts).
          exclude: [...configDefaults.exclude, 'test/components/**', ...pure],
          pool: 'forks',
        },
      },
    ],
  },
})
