import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/cli/commands'
import { commandHelp, programHelp } from '../../src/cli/main'
import { cliInProcess } from './spawn-cli'

/**
 * `query-explorer <command> …` before and around a command: help, usage
 * errors (exit 2, the message then the usage line on standard error), a
 * command's bad input as its lines (exit 2), and every line printed through
 * the terminal layer. Run in-process through main; cli.test.ts runs the real
 * launcher.
 */

describe('help', () => {
  it('prints the program help with --help, -h or help and exits 0; with no command at all, exits 2', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      expect(await cliInProcess(args), args.join(' ')).toEqual({ status: 0, stdout: `${programHelp()}\n`, stderr: '' })
    }
    expect(await cliInProcess([])).toEqual({ status: 2, stdout: `${programHelp()}\n`, stderr: '' })
  })

  it('lists every command with its summary, in order, and the exit statuses', () => {
    const lines = programHelp().split('\n')
    expect(lines[0]).toBe('Usage: query-explorer <command> [arguments]')
    expect(lines.slice(3, 3 + COMMANDS.length).map((line) => line.trim().split(/\s+/)[0])).toEqual(['url', 'parse', 'serve', 'test', 'compare', 'eval', 'agreement', 'judge', 'copy-as', 'merge-workspace'])
    expect(lines).toContain('  parse            print the request model of a Query API URL as JSON (with "base")')
    expect(lines.at(-1)).toBe('Exit status: 0 done, 2 bad input (messages on standard error, one per line), 1 internal fault.')
  })

  it('prints a command help with <command> --help and help <command>: usage, summary, its details and --help', async () => {
    const parse = COMMANDS.find((command) => command.name === 'parse')!
    expect(commandHelp(parse).split('\n')).toEqual([
      'Usage: query-explorer parse <url>',
      '',
      'Print the request model of a Query API URL as JSON (with "base").',
      '',
      '  <url>                  a Query API URL, e.g. https://q.example.com/4/world/api/places/e/search/p/query/paris/results',
      '  --allow-empty-values   accept empty parameter values (only for a server that supports them)',
      '  --help                 show this help',
    ])
    expect(await cliInProcess(['parse', '--help'])).toEqual({ status: 0, stdout: `${commandHelp(parse)}\n`, stderr: '' })
    expect(await cliInProcess(['help', 'parse'])).toEqual({ status: 0, stdout: `${commandHelp(parse)}\n`, stderr: '' })
    expect((await cliInProcess(['url', '-h'])).stdout).toMatch(/^Usage: query-explorer url <file\.json\|->/)
  })
})

describe('usage errors', () => {
  it('exits 2 on an unknown command, listing the commands, and on help for one', async () => {
    expect(await cliInProcess(['frobnicate'])).toEqual({
      status: 2,
      stdout: '',
      stderr: 'query-explorer: unknown command "frobnicate" (commands: url, parse, serve, test, compare, eval, agreement, judge, copy-as, merge-workspace)\nUsage: query-explorer <command> [arguments]\n',
    })
    expect(await cliInProcess(['help', 'nope'])).toEqual({ status: 2, stdout: '', stderr: 'query-explorer: unknown command "nope"\nUsage: query-explorer <command> [arguments]\n' })
  })

  it("exits 2 on an unknown option, a missing argument or one too many, with the command's usage line", async () => {
    const option = await cliInProcess(['parse', '--colour', 'http://h/w/api/a/e/s'])
    expect(option.status).toBe(2)
    expect(option.stderr).toMatch(/^query-explorer: parse: Unknown option '--colour'/)
    expect(option.stderr.trimEnd().split('\n').at(-1)).toBe('Usage: query-explorer parse <url>')
    expect(await cliInProcess(['parse'])).toEqual({ status: 2, stdout: '', stderr: 'query-explorer: parse: missing argument\nUsage: query-explorer parse <url>\n' })
    expect(await cliInProcess(['parse', 'a', 'b'])).toEqual({ status: 2, stdout: '', stderr: 'query-explorer: parse: unexpected argument "b"\nUsage: query-explorer parse <url>\n' })
  })

  it("exits 2 with a command's bad input, one line per problem on standard error, nothing on standard output", async () => {
    expect(await cliInProcess(['parse', 'http://h/w/api/a/statistics?rank=5'])).toEqual({
      status: 2,
      stdout: '',
      stderr: 'steps: The request needs at least one endpoint step\noptions.rank: Option rank applies to resultitem only, not to statistics\n',
    })
  })

  it('prints what it quotes of the command line escaped: a control sequence in a name never reaches the terminal', async () => {
    const run = await cliInProcess(['frob\u001b[2J\u202E'])
    expect(run.stderr.split('\n')[0]).toBe('query-explorer: unknown command "frob\\x1b[2J⟨U+202E⟩" (commands: url, parse, serve, test, compare, eval, agreement, judge, copy-as, merge-workspace)')
  })
})
