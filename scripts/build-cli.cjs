'use strict'
// Bundles the command line (src/cli/launch.ts) into out/cli/query-explorer.cjs,
// so `query-explorer` starts from one file of built JavaScript instead of
// compiling its TypeScript on every start. Packages stay in node_modules
// (required when a command needs them); our own code is the bundle.
const { buildSync } = require('esbuild')
const { join } = require('node:path')

const root = join(__dirname, '..')
// The command line, and the embedded service's query thread beside it (src/service/query/query-thread.ts starts it).
buildSync({
  entryPoints: { 'query-explorer': join(root, 'src', 'cli', 'launch.ts'), 'service-query-worker': join(root, 'src', 'service', 'query', 'query-worker.ts') },
  outdir: join(root, 'out', 'cli'),
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  // The service reads its dataset with createRequire(import.meta.url): in a CommonJS bundle that is this file.
  banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__import_meta_url' },
  logLevel: 'warning',
})
