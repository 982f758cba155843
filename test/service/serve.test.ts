import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/service'
import { createAccount } from '../../src/service/auth/accounts'
import { describeService, parseServiceArguments, USAGE, UsageError } from '../../src/service/serve'
import { useTempDirs, useTempFiles } from '../fixtures/temp-dirs'

/**
 * The embedded service's flags, shared by `npm run service` and
 * `query-explorer serve`: each wrong one refused naming the flag and the
 * rule; and the start-up report, whose first line a script reads.
 * (cli.test.ts starts both for real.)
 */

const tempDir = useTempDirs('qe-service-serve')
const file = useTempFiles('qe-service-serve')

function usageError(argv: string[]): string {
  try {
    parseServiceArguments(argv)
  } catch (error) {
    if (error instanceof UsageError) return error.message
    throw error
  }
  throw new Error(`expected a UsageError for ${argv.join(' ')}`)
}

describe('parseServiceArguments', () => {
  it('is the defaults with no flag, and reads each flag as "--flag value" or "--flag=value"', () => {
    expect(parseServiceArguments([])).toEqual({ service: {}, json: false })
    expect(parseServiceArguments(['--port', '8080', '--token-lifetime=60', '--quota', '5', '--json'])).toEqual({
      service: { port: 8080, tokenLifetimeSeconds: 60, quota: 5 },
      json: true,
    })
    expect(parseServiceArguments(['--port=0']).service.port).toBe(0)
  })

  it('refuses a number out of its range, not whole, or missing, naming the flag and the range', () => {
    expect(usageError(['--port', 'eighty'])).toBe('--port must be a whole number from 0 to 65535, not "eighty"')
    expect(usageError(['--port', '65536'])).toBe('--port must be a whole number from 0 to 65535, not "65536"')
    expect(usageError(['--quota', '0'])).toBe('--quota must be a whole number from 1 to 1000000, not "0"')
    expect(usageError(['--token-lifetime', '1.5'])).toBe('--token-lifetime must be a whole number from 1 to 31536000, not "1.5"')
    expect(usageError(['--token-lifetime'])).toBe('--token-lifetime needs a value')
    expect(usageError(['--quota', '--json'])).toBe('--quota needs a value')
  })

  it('refuses an unknown flag with the usage, --json with a value, and answers --help with the usage', () => {
    expect(usageError(['--colour'])).toBe(`unknown flag "--colour"\n${USAGE}`)
    expect(usageError(['--json=yes'])).toBe('--json takes no value')
    expect(usageError(['--help'])).toBe(USAGE)
    expect(usageError(['-h'])).toBe(USAGE)
  })

  it('reads --accounts from a file: a list, or {"accounts": [...]}', () => {
    const list = file('list.json', JSON.stringify([{ clientId: 'team', clientSecret: 'team-secret' }, { clientId: 'bot', roles: ['API Usage'] }]))
    expect(parseServiceArguments(['--accounts', list]).service.accounts).toEqual([{ clientId: 'team', clientSecret: 'team-secret' }, { clientId: 'bot', roles: ['API Usage'] }])
    const wrapped = file('wrapped.json', JSON.stringify({ accounts: [{ clientId: 'team' }] }))
    expect(parseServiceArguments([`--accounts=${wrapped}`]).service.accounts).toEqual([{ clientId: 'team' }])
  })

  it('refuses an accounts file that is missing, not JSON, of the wrong shape or with one client id twice', () => {
    expect(usageError(['--accounts'])).toBe('--accounts needs a file name')
    const missing = join(tempDir(), 'missing.json')
    expect(usageError(['--accounts', missing])).toBe(`--accounts: cannot read "${missing}": ENOENT`)
    const broken = file('broken.json', '[{"clientId": ')
    expect(usageError(['--accounts', broken])).toBe(`--accounts: "${broken}" is not valid JSON`)
    const shape = file('shape.json', JSON.stringify([{ clientId: 'a', roles: ['Admin'] }]))
    expect(usageError(['--accounts', shape]).startsWith(`--accounts: "${shape}" must hold a list of {clientId, clientSecret?, name?, roles?, workspaces?} (`)).toBe(true)
    // A problem inside an account names its place and the rule, not the whole file's "Invalid input".
    const role = file('role.json', JSON.stringify([{ clientId: 'a', roles: ['Admin'] }]))
    expect(usageError(['--accounts', role])).toBe(`--accounts: "${role}" must hold a list of {clientId, clientSecret?, name?, roles?, workspaces?} (0.roles.0: Invalid option: expected one of "API Usage"|"Data Provider")`)
    const wrapped = file('wrapped-bad.json', JSON.stringify({ accounts: [{ clientId: '' }] }))
    expect(usageError(['--accounts', wrapped])).toBe(`--accounts: "${wrapped}" must hold a list of {clientId, clientSecret?, name?, roles?, workspaces?} (accounts.0.clientId: Too small: expected string to have >=1 characters)`)
    const twice = file('twice.json', JSON.stringify([{ clientId: 'a' }, { clientId: 'a' }]))
    expect(usageError(['--accounts', twice])).toBe('--accounts: the client id "a" appears twice')
  })
})

describe('describeService', () => {
  const team = createAccount({ clientId: 'team', clientSecret: 'team-secret' })
  const bot = { ...createAccount({ clientId: 'bot' }), clientSecret: 'generated-bot-secret' }
  const service = {
    authUrl: 'http://127.0.0.1:4000/auth',
    queryUrl: 'http://127.0.0.1:4000/query',
    judgeUrl: 'http://127.0.0.1:4000/v1',
    workspace: 'world',
    apis: ['places', 'public'],
    account: { clientId: 'team', clientSecret: 'team-secret' },
    accounts: [team, bot],
    startupMs: 42,
  } as unknown as RunningService

  it('--json: the first line is one JSON object a script reads, then a line for each other account whose secret was made', () => {
    expect(describeService(service, true)).toBe(
      '{"authUrl":"http://127.0.0.1:4000/auth","queryUrl":"http://127.0.0.1:4000/query","judgeUrl":"http://127.0.0.1:4000/v1","workspace":"world","apis":["places","public"],"account":{"clientId":"team","clientSecret":"team-secret"}}\n' +
        '{"clientId":"bot","clientSecret":"generated-bot-secret"}\n',
    )
  })

  it('as text: the URLs, how to ask for a token, the APIs, the account and each secret made for this run, once', () => {
    expect(describeService(service, false).split('\n')).toEqual([
      'Query Explorer demo service (started in 42 ms)',
      '  auth URL:   http://127.0.0.1:4000/auth   (POST http://127.0.0.1:4000/auth/api/auth, or OAuth: POST http://127.0.0.1:4000/auth/oauth/token)',
      '  query URL:  http://127.0.0.1:4000/query',
      "  judge URL:  http://127.0.0.1:4000/v1   (OpenAI-compatible, model demo-judge: the demo's stand-in judge, not a language model)",
      '  workspace:  world',
      '  APIs:       places, public   (try GET http://127.0.0.1:4000/query/world/api/public/)',
      '  account:    client id team',
      '              client secret team-secret',
      '  account:    client id bot, generated secret generated-bot-secret (shown once)',
      'Press Ctrl+C to stop.',
      '',
    ])
    const demo = { ...service, accounts: [createAccount({ clientId: 'demo' })] } as unknown as RunningService
    expect(describeService(demo, false)).toContain('(generated for this run, shown once)')
  })
})
