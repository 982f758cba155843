import { describe, expect, it } from 'vitest'
import { EXIT_BAD_INPUT, EXIT_FAULT, EXIT_OK, InputError, problemLines, stringOption } from '../../src/cli/command'

/** What every subcommand shares: exit statuses, bad input as lines, the problems of a request, a string flag. */

describe('command', () => {
  it('exits 0 when done, 2 on bad input and 1 on a fault of ours (the statuses CI scripts branch on)', () => {
    expect([EXIT_OK, EXIT_BAD_INPUT, EXIT_FAULT]).toEqual([0, 2, 1])
  })

  it('writes one line per problem: the field, then the rule broken', () => {
    const lines = problemLines([
      { field: 'options.count', message: 'Option count must be a whole number from 1 to 100, not 0' },
      { field: 'workspace', message: 'Workspace name must not be empty' },
    ])
    expect(lines).toEqual(['options.count: Option count must be a whole number from 1 to 100, not 0', 'workspace: Workspace name must not be empty'])
    expect(problemLines([])).toEqual([])
  })

  it('keeps bad input as its lines, the message being those lines joined', () => {
    const error = new InputError(['--depth: "x" is not a whole number', 'second line'])
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('InputError')
    expect(error.lines).toEqual(['--depth: "x" is not a whole number', 'second line'])
    expect(error.message).toBe('--depth: "x" is not a whole number\nsecond line')
  })

  it('reads a string option, and nothing for a flag given as a boolean, a list or not at all', () => {
    const values = { base: 'http://h', json: true, gate: ['a', 'b'], empty: '' }
    expect(stringOption(values, 'base')).toBe('http://h')
    expect(stringOption(values, 'empty')).toBe('')
    expect(stringOption(values, 'json')).toBeUndefined()
    expect(stringOption(values, 'gate')).toBeUndefined()
    expect(stringOption(values, 'missing')).toBeUndefined()
  })
})
