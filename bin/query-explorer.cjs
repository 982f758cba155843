#!/usr/bin/env node
'use strict'
// Launcher for the command line, which is written in TypeScript (src/cli):
// tsx's CommonJS hook compiles it on require, so the repository needs no
// build step for `npx query-explorer` to work.
require('tsx/cjs')
const { main } = require('../src/cli/main.ts')
const { processIo } = require('../src/cli/io.ts')

main(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    process.stderr.write(`query-explorer: internal error: ${error && error.stack ? error.stack : error}\n`)
    process.exitCode = 1
  },
)
