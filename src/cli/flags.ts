import type { Command, OptionSpecs } from './command'

/** Where a description starts in a command's help: every command's lines up there. */
const DESCRIPTION_COLUMN = 23

/** One flag of a command, declared once: how parseArgs reads it, and what the command's help says of it. */
export interface Flag {
  type: 'string' | 'boolean'
  /** Repeatable: every value is kept, in order. */
  multiple?: true
  /** What the help shows after the flag's name: "NAME", "FILE". */
  value?: string
  /** The help's term where it names more than this flag: "--a SPEC, --b SPEC". */
  term?: string
  /** The description, a line each; none where an earlier flag's term names this one too. */
  help?: string | readonly string[]
}

export type Flags = Readonly<Record<string, Flag>>

/** A help entry: the term, then its description from the help's column (on the next line when the term reaches it). */
export function helpLines(term: string, help: string | readonly string[]): string[] {
  const [first = '', ...rest] = typeof help === 'string' ? [help] : help
  const indent = ' '.repeat(DESCRIPTION_COLUMN)
  const head = term.length < DESCRIPTION_COLUMN - 1 ? [`${term.padEnd(DESCRIPTION_COLUMN)}${first}`] : [term, `${indent}${first}`]
  return [...head, ...rest.map((line) => `${indent}${line}`)]
}

/**
 * A command's help lines and its parseArgs options from one list: a string
 * is a line as it is (an argument, a note, the exit statuses), a set of flags
 * is each flag's help entry, in order, and its option.
 */
export function withFlags(parts: readonly (string | Flags)[]): Pick<Command, 'details' | 'options'> {
  const details: string[] = []
  const options: OptionSpecs = {}
  for (const part of parts) {
    if (typeof part === 'string') {
      details.push(part)
      continue
    }
    for (const [name, { type, multiple, value, term, help }] of Object.entries(part)) {
      options[name] = multiple ? { type, multiple } : { type }
      if (help !== undefined) details.push(...helpLines(term ?? (value === undefined ? `--${name}` : `--${name} ${value}`), help))
    }
  }
  return { details, options }
}

/** The flags with some of their descriptions said another way, for a command that uses them otherwise. */
export function describedAs<F extends Flags>(flags: F, help: Partial<Record<keyof F, string>>): F {
  const out: Record<string, Flag> = { ...flags }
  for (const [name, text] of Object.entries(help) as [string, string][]) out[name] = { ...flags[name]!, help: text }
  return out as F
}
