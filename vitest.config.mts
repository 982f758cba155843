import { configDefaults, defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Component tests run in Chromium with their own config (vitest.components.config.mts).
    exclude: [...configDefaults.exclude, 'test/components/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
})
