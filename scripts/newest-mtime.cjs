'use strict'
const { readdirSync, statSync } = require('node:fs')
const { join } = require('node:path')

/**
 * The newest modification time under `path` (a file, or a folder walked
 * whole): whether a build is older than its sources, a few milliseconds for
 * the whole src/ tree. `npm start` and the command line's launcher ask it.
 */
function newestMtime(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const entry of readdirSync(path)) latest = Math.max(latest, newestMtime(join(path, entry)))
  return latest
}

module.exports = { newestMtime }
