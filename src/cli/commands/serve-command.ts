import type { RunningService } from '../../service'
import { EXIT_FAULT, InputError, type Command } from '../command'
import { writeJson, writeLines } from '../terminal-io'
import { untilStopped } from '../until-stopped'
import { withFlags, type Flags } from '../flags'

/** The flags of `npm run service` (service/serve.ts reads and checks them), as the command line takes them. */
const SERVE_FLAGS = {
  port: { type: 'string', value: 'N', help: 'the port on 127.0.0.1 (default 0: any free port)' },
  'token-lifetime': { type: 'string', value: 'S', help: 'seconds a token is valid (default 3600)' },
  quota: { type: 'string', value: 'N', help: 'token requests per account and workspace per hour (default 20)' },
  accounts: { type: 'string', value: 'FILE.json', help: 'the M2M accounts: [{clientId, clientSecret?, name?, roles?, workspaces?}]' },
  json: { type: 'boolean', help: 'print the URLs, workspace, APIs and account as one JSON object on the first line' },
} as const satisfies Flags

/**
 * `serve [--port N] [--token-lifetime S] [--quota N] [--accounts FILE] [--json]`:
 * the embedded demo service until SIGINT or SIGTERM, with the flags and the
 * report of `npm run service`. Through the bin nothing is printed before the
 * report, so with --json the first line on standard output is the JSON.
 */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the embedded demo service (auth host and Query API) until stopped',
  usage: '[--port N] [--token-lifetime SECONDS] [--quota N] [--accounts FILE.json] [--json]',
  ...withFlags([SERVE_FLAGS]),
  positionals: { min: 0, max: 0 },
  async run({ values }, io) {
    // The service's own reader checks every flag, so both ways in say the same things.
    const argv: string[] = []
    for (const flag of Object.keys(SERVE_FLAGS)) {
      const value = values[flag]
      if (typeof value === 'string') argv.push(`--${flag}=${value}`)
      else if (value === true) argv.push(`--${flag}`)
    }
    // The service (its flags, dataset and index) is loaded when it is served, not on every start of the command line.
    const { UsageError, describeService, parseServiceArguments } = await import('../../service/serve')
    let options: ReturnType<typeof parseServiceArguments>
    try {
      options = parseServiceArguments(argv)
    } catch (error) {
      if (error instanceof UsageError) throw new InputError([`serve: ${error.message.split('\n')[0]}`])
      throw error
    }
    let service: RunningService
    const { startService } = await import('../../service')
    try {
      service = await startService(options.service)
    } catch (error) {
      io.err(`serve: could not start: ${(error as Error).message}`)
      return EXIT_FAULT
    }
    // With --json every line is a JSON object (JSON Lines), whose strings must parse back as given.
    const described = describeService(service, options.json)
    if (options.json) writeJson(io.out, described)
    else writeLines(io.out, described)
    return untilStopped(() => service.close())
  },
}
