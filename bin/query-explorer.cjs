#!/usr/bin/env node
'use strict'
// Launcher for the command line. It runs the built bundle
// (out/cli/query-explorer.cjs, made by `npm run build`) when that is newer
// than every source; otherwise (a clone never built, or sources edited since)
// the TypeScript sources through tsx's CommonJS hook, so `npx query-explorer`
// always runs the code as it is now.
const { existsSync, readdirSync, statSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..')
const built = join(root, 'out', 'cli', 'query-explorer.cjs')

/** The newest modification time under `path`: a few milliseconds for the whole src/ tree. */
function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

function builtIsCurrent() {
  if (process.env.QUERY_EXPLORER_FROM_SOURCES === '1' || !existsSync(built)) return false
  const sources = [join(root, 'src'), join(root, 'package.json')].filter(existsSync)
  return statSync(built).mtimeMs > Math.max(...sources.map(newest))
}

if (builtIsCurrent()) {
  require(built)
} else {
  require('tsx/cjs')
  require('../src/cli/launch.ts')
}
