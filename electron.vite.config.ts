import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // index: the Electron entry; browser-host: the same handler table served
        // over loopback where no Electron runtime exists.
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'browser-host': resolve(__dirname, 'src/main/host/browser-host-cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [vue()],
  },
})
