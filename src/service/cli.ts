import { startService } from './index'
import { UsageError, describeService, parseServiceArguments, type CliOptions } from './serve'

/**
 * `npm run service -- [--port N] [--token-lifetime S] [--quota N] [--accounts FILE] [--json]`
 * Runs the embedded service until SIGINT/SIGTERM. With --json the first line
 * of stdout is one JSON object for scripts (use `npm run --silent service`,
 * or `npx query-explorer serve --json`: npm prints a banner of its own
 * first). A generated secret is printed here, once, and nowhere else.
 */

async function main(): Promise<void> {
  let options: CliOptions
  try {
    options = parseServiceArguments(process.argv.slice(2))
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`service: ${error.message}\n`)
    process.exit(2)
  }
  const service = await startService(options.service)
  process.stdout.write(describeService(service, options.json))
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(`service: could not start: ${(error as Error).message}\n`)
  process.exit(1)
})
