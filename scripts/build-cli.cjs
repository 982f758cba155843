'use strict'
// Bundles the command line (src/cli/launch.ts) into out/cli/query-explorer.cjs,
// so `query-explorer` starts from one file of built JavaScript instead of
// compiling its TypeScript on every start. Packages stay in node_modules
// (required when a command needs them); our own code is the bundle.
const { buildSync } = require('esbuild')
const { join } = require('node:path')

const root = join(__dirname, '..')
buildSync({
  entryPoints: [join(root, 'src', 'cli', 'launch.ts')],
  outfile: join(root, 'out', 'cli', 'query-explorer.cjs'),
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
