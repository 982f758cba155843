import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import type { Plugin } from 'vite'
import { META_CONTENT_SECURITY_POLICY } from './src/shared/security/content-security-policy'

/** Writes the content security policy into index.html: the Electron window has no server to send it as a header. */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'query-explorer:content-security-policy',
    // Right after the charset, ahead of every script: a policy applies only to what comes after it.
    transformIndexHtml: (html) =>
      html.replace('<!-- content-security-policy -->', `<meta http-equiv="Content-Security-Policy" content="${META_CONTENT_SECURITY_POLICY}" />`),
  }
}

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // index: the Electron entry; browser-host: the same handler table served
        // over loopback where no Electron runtime exists; demo-service: the
        // embedded service, which both fork so its queries never block them;
        // export-writer: the thread that reads an export's pages and writes its file.
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'browser-host': resolve(__dirname, 'src/main/host/browser-host-cli.ts'),
          'demo-service': resolve(__dirname, 'src/service/process-entry.ts'),
          // The service's queries run on a thread of their own (src/service/query/query-thread.ts).
          'service-query-worker': resolve(__dirname, 'src/service/query/query-worker.ts'),
          // An export's pages are read and its file written in a worker thread (src/main/export/writer-thread.ts).
          'export-writer': resolve(__dirname, 'src/main/export/writer-worker.ts'),
          // An experiment's statistics (permutations, resamples) are computed in a worker thread (src/main/experiments/stats-thread.ts).
          'experiment-stats': resolve(__dirname, 'src/main/experiments/stats-worker.ts'),
          // A set's agreement figures and disagreements are computed in a worker thread (src/main/evaluation/agreement-thread.ts).
          'rater-agreement': resolve(__dirname, 'src/main/evaluation/agreement-worker.ts'),
          // What to judge next (intervals, verdicts, the queue) is worked out in a worker thread (src/main/evaluation/judge-next-thread.ts).
          'judge-next': resolve(__dirname, 'src/main/evaluation/judge-next-worker.ts'),
          // A judge's calibration and whether an experiment's verdict holds are worked out in a worker thread (src/main/judges/calibration.ts).
          'judge-calibration': resolve(__dirname, 'src/main/judges/calibration-worker.ts'),
          // The data folder's database is read and written by a thread of its own (src/main/storage/data-store/data-store.ts).
          'data-store': resolve(__dirname, 'src/main/storage/data-store/store-worker.ts'),
          // Workspace files and session.json are read, checked, serialized and written on a thread of their own (src/main/workspaces/file-thread.ts).
          'workspace-files': resolve(__dirname, 'src/main/workspaces/file-worker.ts'),
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
    plugins: [vue(), contentSecurityPolicy()],
  },
})
