#!/usr/bin/env node
'use strict'
// Launcher for the command line. It runs the built bundle
// (out/cli/query-explorer.cjs, made by `npm run build`) when that is newer
// than every source; otherwise (a clone never built, or sources edited since)
// the TypeScript sources through tsx's CommonJS hook, so `npx query-explorer`
// always runs the code as it is now.
const { builtCli, builtCliIsCurrent } = require('../scripts/cli-bundle.cjs')

if (builtCliIsCurrent()) {
  require(builtCli)
} else {
  require('tsx/cjs')
  // The commands load some modules lazily with import(), which Node resolves as ESM: that loader needs tsx's hook too
  // (its CommonJS entry of this API cannot register it, so the ESM one is loaded).
  import('tsx/esm/api').then(({ register }) => {
    register()
    require('../src/cli/launch.ts')
  })
}
