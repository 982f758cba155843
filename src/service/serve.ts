import { readFileSync } from 'node:fs'
import { accountFileSchemaOf, type AccountSpec } from './auth/accounts'
import type { RunningService, ServiceOptions } from './index'

/**
 * The embedded service's command-line flags and its start-up report, shared
 * by `npm run service` (src/service/cli.ts) and `query-explorer serve`
 * (src/cli), so both take the same flags and print the same first line.
 */

export class UsageError extends Error {}

export const USAGE = 'usage: npm run service -- [--port N] [--token-lifetime SECONDS] [--quota N] [--accounts FILE.json] [--json]'

export interface CliOptions {
  service: ServiceOptions
  json: boolean
}

function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number {
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`)
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`)
  }
  return Number(value)
}

function readAccounts(file: string | undefined): AccountSpec[] {
  if (file === undefined || file.startsWith('--')) throw new UsageError('--accounts needs a file name')
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--accounts: cannot read "${file}": ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new UsageError(`--accounts: "${file}" is not valid JSON`)
  }
  const parsed = accountFileSchemaOf(json).safeParse(json)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ')
    throw new UsageError(`--accounts: "${file}" must hold a list of {clientId, clientSecret?, name?, roles?, workspaces?} (${problems})`)
  }
  const accounts = Array.isArray(parsed.data) ? parsed.data : parsed.data.accounts
  const ids = new Set<string>()
  for (const account of accounts) {
    if (ids.has(account.clientId)) throw new UsageError(`--accounts: the client id "${account.clientId}" appears twice`)
    ids.add(account.clientId)
  }
  return accounts
}

export function parseServiceArguments(argv: string[]): CliOptions {
  const options: CliOptions = { service: {}, json: false }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!
    const [name, inline] = flag.includes('=') ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)] : [flag, undefined]
    const value = () => (inline !== undefined ? inline : argv[++i])
    switch (name) {
      case '--port':
        options.service.port = wholeNumber('--port', value(), 0, 65535)
        break
      case '--token-lifetime':
        options.service.tokenLifetimeSeconds = wholeNumber('--token-lifetime', value(), 1, 31_536_000)
        break
      case '--quota':
        options.service.quota = wholeNumber('--quota', value(), 1, 1_000_000)
        break
      case '--accounts':
        options.service.accounts = readAccounts(value())
        break
      case '--json':
        if (inline !== undefined) throw new UsageError('--json takes no value')
        options.json = true
        break
      case '--help':
      case '-h':
        throw new UsageError(USAGE)
      default:
        throw new UsageError(`unknown flag "${name}"\n${USAGE}`)
    }
  }
  return options
}

export function describeService(service: RunningService, json: boolean): string {
  const summary = {
    authUrl: service.authUrl,
    queryUrl: service.queryUrl,
    judgeUrl: service.judgeUrl,
    workspace: service.workspace,
    apis: service.apis,
    account: service.account,
  }
  const generated = service.accounts.filter((account, index) => index > 0 && account.generatedSecret)
  if (json) {
    const others = generated.map((account) => JSON.stringify({ clientId: account.clientId, clientSecret: account.clientSecret }))
    return [JSON.stringify(summary), ...others].join('\n') + '\n'
  }
  const lines = [
    `Query Explorer demo service (started in ${service.startupMs} ms)`,
    `  auth URL:   ${service.authUrl}   (POST ${service.authUrl}/api/auth, or OAuth: POST ${service.authUrl}/oauth/token)`,
    `  query URL:  ${service.queryUrl}`,
    `  judge URL:  ${service.judgeUrl}   (OpenAI-compatible, model demo-judge: the demo's stand-in judge, not a language model)`,
    `  workspace:  ${service.workspace}`,
    `  APIs:       ${service.apis.join(', ')}   (try GET ${service.queryUrl}/${service.workspace}/api/public/)`,
    `  account:    client id ${service.account.clientId}`,
    `              client secret ${service.account.clientSecret}${service.accounts[0]?.generatedSecret ? '   (generated for this run, shown once)' : ''}`,
    ...generated.map((account) => `  account:    client id ${account.clientId}, generated secret ${account.clientSecret} (shown once)`),
    'Press Ctrl+C to stop.',
  ]
  return lines.join('\n') + '\n'
}

