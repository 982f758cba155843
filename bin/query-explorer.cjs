#!/usr/bin/env node
'use strict'
// Launcher for the command line. It runs the built bundle
// (out/cli/query-explorer.cjs, made by `npm run build`) when that is newer
// than every source; otherwise (a clone never built, or sources edited since)
// the TypeScript sources through tsx's CommonJS hook, so `npx query-explorer`
// always runs the code as it is now.
const { existsSync, statSync } = require('node:fs')
const { join } = require('node:path')
const { newestMtime } = require('../scripts/newest-mtime.cjs')

const root = join(__dirname, '..')
const built = join(root, 'out', 'cli', 'query-explorer.cjs')

function builtIsCurrent() {
  if (process.env.QUERY_EXPLORER_FROM_SOURCES === '1' || !existsSync(built)) return false
  // What the bundle is made of: the window's own code (src/renderer, src/preload) is not in it.
  const sources = ['src/cli', 'src/main', 'src/shared', 'src/service', 'package.json'].map((path) => join(root, path)).filter(existsSync)
  return statSync(built).mtimeMs > Math.max(...sources.map(newestMtime))
}

if (builtIsCurrent()) {
  require(built)
} else {
  require('tsx/cjs')
  require('../src/cli/launch.ts')
}
