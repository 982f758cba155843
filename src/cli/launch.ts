import { main } from './main'
import { processIo } from './io'
import { terminalSafe } from '../shared/text/terminal-safe'

/**
 * What `query-explorer` runs: the command line with this process's
 * arguments and streams, its exit status, and a last word for a fault of
 * ours. bin/query-explorer.cjs loads it built (out/cli/query-explorer.cjs)
 * or, when the sources are newer than the build, from the sources through tsx.
 */
// Output piped into a reader that stops early (`| head`): the rest is not wanted, which is no fault.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
}

main(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    // main reports its own faults; this is the last resort, escaped like everything else it prints.
    const text = String(error instanceof Error && error.stack ? error.stack : error)
    process.stderr.write(`query-explorer: internal error: ${terminalSafe(text, { keepNewlines: true })}\n`)
    process.exitCode = 1
  },
)
