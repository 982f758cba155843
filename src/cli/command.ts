import type { ParseArgsConfig } from 'node:util'
import type { Problem } from '../shared/query/validate'
import type { CliIo } from './io'

/** Exit statuses: 2 is bad input (usage, unreadable file, invalid request), 1 a fault of ours. */
export const EXIT_OK = 0
export const EXIT_FAULT = 1
export const EXIT_BAD_INPUT = 2

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>

export interface CommandInput {
  positionals: string[]
  values: OptionValues
}

/** One subcommand. Adding one (e.g. `run`) is one module plus one line in commands/index.ts. */
export interface Command {
  name: string
  /** One line for the command list. */
  summary: string
  /** Arguments after the command name, e.g. `<url>`. */
  usage: string
  /** Lines describing the arguments and options. */
  details: string[]
  options: OptionSpecs
  /** How many positionals the command takes. */
  positionals: { min: number; max: number }
  run(input: CommandInput, io: CliIo): Promise<number>
}

/** Bad input: each line goes to standard error and the process exits 2. */
export class InputError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'))
    this.name = 'InputError'
  }
}

/** One line per problem: the field, then the rule broken. */
export function problemLines(problems: readonly Problem[]): string[] {
  return problems.map((problem) => `${problem.field}: ${problem.message}`)
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}
