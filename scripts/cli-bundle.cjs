'use strict'
// Whether the command line's bundle (out/cli/query-explorer.cjs, made by
// `npm run build`) is newer than every source it is made of; the launcher
// runs it only then, and the bench says which of the two it timed.
const { existsSync, statSync } = require('node:fs')
const { join } = require('node:path')
const { newestMtime } = require('./newest-mtime.cjs')

const root = join(__dirname, '..')
const builtCli = join(root, 'out', 'cli', 'query-explorer.cjs')

function builtCliIsCurrent() {
  if (process.env.QUERY_EXPLORER_FROM_SOURCES === '1' || !existsSync(builtCli)) return false
  // What the bundle is made of: the window's own code (src/renderer, src/preload) is not in it.
  const sources = ['src/cli', 'src/main', 'src/shared', 'src/service', 'package.json'].map((path) => join(root, path)).filter(existsSync)
  return statSync(builtCli).mtimeMs > Math.max(...sources.map(newestMtime))
}

module.exports = { builtCli, builtCliIsCurrent }
