#!/usr/bin/env node
'use strict'
// Launcher for the command line, which is written in TypeScript (src/cli):
// tsx's CommonJS hook compiles it on require, so the repository needs no
// build step for `npx query-explorer` to work.
require('tsx/cjs')
const { main } = require('../src/cli/main.ts')
const { processIo } = require('../src/cli/io.ts')
const { terminalSafe } = require('../src/shared/text/terminal-safe.ts')

main(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    // main reports its own faults; this is the last resort, escaped like everything else it prints.
    const text = String(error && error.stack ? error.stack : error)
    process.stderr.write(`query-explorer: internal error: ${terminalSafe(text, { keepNewlines: true })}\n`)
    process.exitCode = 1
  },
)
