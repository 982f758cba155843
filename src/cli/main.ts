import { parseArgs } from 'node:util'
import { EXIT_BAD_INPUT, EXIT_FAULT, EXIT_OK, InputError, type Command } from './command'
import { COMMANDS } from './commands'
import { createRedactor } from '../shared/security/redaction'
import type { CliIo } from './io'
import { terminalSafeIo, writeLines } from './terminal-io'

/**
 * `query-explorer <command> …`: the command line over the same request model,
 * codec and validation as the app (src/shared/query). bin/query-explorer.cjs
 * calls `main`; tests call it in-process or spawn the bin.
 */

const PROGRAM = 'query-explorer'

function find(name: string | undefined): Command | undefined {
  return COMMANDS.find((command) => command.name === name)
}

export function programHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length))
  return [
    `Usage: ${PROGRAM} <command> [arguments]`,
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    `Run "${PROGRAM} <command> --help" for a command's arguments.`,
    'Exit status: 0 done, 2 bad input (messages on standard error, one per line), 1 internal fault.',
  ].join('\n')
}

export function commandHelp(command: Command): string {
  return [
    `Usage: ${PROGRAM} ${command.name} ${command.usage}`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    ...command.details.map((line) => `  ${line}`),
    '  --help                 show this help',
  ].join('\n')
}

function usageError(io: CliIo, message: string, help: string): number {
  io.err(`${PROGRAM}: ${message}`)
  io.err(help.split('\n')[0]!)
  return EXIT_BAD_INPUT
}

/** An internal error's message on one line (it may quote a file or a server), then its stack frames. */
function faultLines(error: unknown): string[] {
  if (!(error instanceof Error)) return [String(error)]
  const head = String(error)
  const stack = error.stack ?? head
  const frames = stack.startsWith(head) ? stack.slice(head.length) : stack
  return [head, ...frames.split('\n').filter((line) => /^\s+at /.test(line))]
}

export async function main(argv: readonly string[], outside: CliIo): Promise<number> {
  // Every line printed below may quote a workspace file or a server: none may drive the terminal.
  const io = terminalSafeIo({ ...outside, secrets: outside.secrets ?? createRedactor() })
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? find(rest[0]) : undefined
    if (name === 'help' && rest[0] !== undefined && !topic) return usageError(io, `unknown command "${rest[0]}"`, programHelp())
    writeLines(io.out, topic ? commandHelp(topic) : programHelp())
    return name === undefined ? EXIT_BAD_INPUT : EXIT_OK
  }
  const command = find(name)
  if (!command) return usageError(io, `unknown command "${name}" (commands: ${COMMANDS.map((c) => c.name).join(', ')})`, programHelp())

  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...rest],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    return usageError(io, `${command.name}: ${(error as Error).message}`, commandHelp(command))
  }
  if (parsed.values.help === true) {
    writeLines(io.out, commandHelp(command))
    return EXIT_OK
  }
  const count = parsed.positionals.length
  if (count < command.positionals.min || count > command.positionals.max) {
    const message = count < command.positionals.min ? 'missing argument' : `unexpected argument "${parsed.positionals[command.positionals.max]}"`
    return usageError(io, `${command.name}: ${message}`, commandHelp(command))
  }
  try {
    return await command.run({ positionals: parsed.positionals, values: parsed.values }, io)
  } catch (error) {
    if (error instanceof InputError) {
      for (const line of error.lines) io.err(line)
      return EXIT_BAD_INPUT
    }
    const [head, ...frames] = faultLines(error)
    io.err(`${PROGRAM}: internal error: ${head}`)
    for (const frame of frames) io.err(frame)
    return EXIT_FAULT
  }
}
