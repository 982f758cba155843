'use strict'
// Preloaded (node --require) into a command the bench runs: as the process
// exits, writes its peak resident set size in KiB (getrusage's ru_maxrss,
// over its whole life) to the file QE_BENCH_PEAK_RSS_FILE names. Polling
// /proc from outside would miss a peak between two reads.
const { writeFileSync } = require('node:fs')

const file = process.env.QE_BENCH_PEAK_RSS_FILE
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)))
