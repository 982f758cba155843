import { parseArgs } from 'node:util'
import { describe, expect, it } from 'vitest'
import { describedAs, helpLines, withFlags, type Flags } from '../../src/cli/flags'

/** A command's flags declared once: its help lines and what parseArgs takes, from one list. */

const FLAGS = {
  set: { type: 'string', value: 'NAME', help: 'the query set' },
  a: { type: 'string', term: '--a SPEC, --b SPEC', help: ['each side as key=value pairs,', 'e.g. --a config=default'] },
  b: { type: 'string' },
  gate: { type: 'string', multiple: true, value: 'METRIC:MARGIN', help: 'repeatable' },
  json: { type: 'boolean', help: 'print JSON' },
} as const satisfies Flags

describe('command flags', () => {
  it('lines a description up at the help column, or under a term that reaches it', () => {
    expect(helpLines('--set NAME', 'the query set')).toEqual(['--set NAME             the query set'])
    expect(helpLines('--gain exponential|linear', ['how a grade counts', 'default exponential'])).toEqual([
      '--gain exponential|linear',
      '                       how a grade counts',
      '                       default exponential',
    ])
    // The longest term beside its description keeps two spaces before it.
    expect(helpLines('--allow-empty-values', 'accept empty values')).toEqual(['--allow-empty-values   accept empty values'])
    expect(helpLines('--allow-empty-values1', 'x')).toEqual(['--allow-empty-values1  x'])
    expect(helpLines('--allow-empty-values12', 'x')).toEqual(['--allow-empty-values12', '                       x'])
  })

  it("gives the help lines in order, with the lines around them, and parseArgs' options", () => {
    const { details, options } = withFlags(['<file>                 the workspace file', FLAGS, 'Exit status: 0 done.'])
    expect(details).toEqual([
      '<file>                 the workspace file',
      '--set NAME             the query set',
      '--a SPEC, --b SPEC     each side as key=value pairs,',
      '                       e.g. --a config=default',
      '--gate METRIC:MARGIN   repeatable',
      '--json                 print JSON',
      'Exit status: 0 done.',
    ])
    expect(options).toEqual({ set: { type: 'string' }, a: { type: 'string' }, b: { type: 'string' }, gate: { type: 'string', multiple: true }, json: { type: 'boolean' } })
    // What parseArgs reads with them: a flag with no help of its own (--b) is a flag all the same; --gate repeats.
    const { values } = parseArgs({ args: ['--b', 'config=x', '--gate', 'p@10:0', '--gate', 'ap:0', '--json'], options, strict: true })
    expect(values).toEqual({ b: 'config=x', gate: ['p@10:0', 'ap:0'], json: true })
  })

  it('says some flags another way for one command, leaving the others and the shared declaration as they are', () => {
    const sides = describedAs(FLAGS, { set: 'the set both sides run' })
    expect(withFlags([sides]).details[0]).toBe('--set NAME             the set both sides run')
    expect(withFlags([sides]).details.slice(1)).toEqual(withFlags([FLAGS]).details.slice(1))
    expect(FLAGS.set.help).toBe('the query set')
  })
})
