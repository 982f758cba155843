import { basename } from 'node:path'
import type { ParseWorkspaceResult, Workspace } from '../../shared/workspace/workspace-file'
import { InputError, stringOption, type OptionValues } from '../command'
import type { Flags } from '../flags'
import { DEFAULT_MAX_WAIT_SECONDS, pinnedOrigin, SECRET_VARIABLE, type ConnectionFlags } from '../run-target'

/** The flags `test`, `compare` and `eval` share: which connection, and what to override of it. */
export const CONNECTION_FLAGS = {
  connection: { type: 'string', value: 'NAME', help: 'a connection of the workspace file, by name or id (default: its first)' },
  config: { type: 'string', value: 'NAME', help: 'run every case with this configuration' },
  api: { type: 'string', value: 'NAME', help: 'run every case against this API' },
  'auth-url': { type: 'string', term: '--auth-url URL, --query-url URL, --workspace NAME, --client-id ID', help: "override the connection's fields (point the file at a staging host)" },
  'query-url': { type: 'string' },
  workspace: { type: 'string' },
  'client-id': { type: 'string' },
  demo: { type: 'boolean', help: ['run on the embedded demo service, started in this process (the default', "when the connection is the app's Demo and no URL is overridden)"] },
  'max-wait': { type: 'string', value: 'SECONDS', help: `wait at most this long when the auth host answers 429 (default ${DEFAULT_MAX_WAIT_SECONDS})` },
  'auth-url-must-match': {
    type: 'string',
    term: '--auth-url-must-match ORIGIN, --query-url-must-match ORIGIN',
    help: ["refuse to run (exit 2, nothing sent) unless the connection's auth URL or", 'query URL has this origin: a CI job pins the hosts its secret and tokens may reach'],
  },
  'query-url-must-match': { type: 'string' },
} as const satisfies Flags

/** Where the secret of the connection the flags choose comes from: said after them in each command's help. */
export const CONNECTION_NOTES = [
  `The client secret comes from ${SECRET_VARIABLE} or QUERY_EXPLORER_SECRET_<CONNECTION>`,
  "(the connection's name in capitals, other characters as _) and is sent to the file connection's",
  "auth URL; or from the app's keychain entry for a saved connection with the same workspace, client ID",
  'and auth and query origins; never from a flag or a file. The run asks for a token of its own, sent',
  "only to the query URL's origin.",
]

export function connectionFlags(values: OptionValues): ConnectionFlags {
  return {
    connection: stringOption(values, 'connection'),
    authUrl: stringOption(values, 'auth-url'),
    queryUrl: stringOption(values, 'query-url'),
    workspace: stringOption(values, 'workspace'),
    clientId: stringOption(values, 'client-id'),
    demo: values.demo === true ? true : undefined,
    authOrigin: pinnedOrigin('--auth-url-must-match', stringOption(values, 'auth-url-must-match')),
    queryOrigin: pinnedOrigin('--query-url-must-match', stringOption(values, 'query-url-must-match')),
  }
}

/** --max-wait: whole seconds, 0 (never wait) up to a day. */
export function maxWaitOf(values: OptionValues): number {
  const text = stringOption(values, 'max-wait')
  if (text === undefined) return DEFAULT_MAX_WAIT_SECONDS
  const value = Number(text)
  if (!/^\d+$/.test(text) || value > 86_400) throw new InputError([`--max-wait: "${text}" is not a whole number of seconds from 0 to 86400.`])
  return value
}

/** --concurrency: how many cases or queries run at once, a whole number from 1 to `max` (`fallback` when not given). */
export function concurrencyOf(values: OptionValues, fallback: number, max: number): number {
  const text = stringOption(values, 'concurrency')
  if (text === undefined) return fallback
  const value = Number(text)
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > max) throw new InputError([`--concurrency: "${text}" is not a whole number from 1 to ${max}.`])
  return value
}

/** Reads the workspace file; an unreadable or invalid one is bad input (exit 2) with the reader's sentence. */
export async function readWorkspaceArgument(
  path: string,
  read: (path: string) => Promise<ParseWorkspaceResult>,
): Promise<{ workspace: Workspace; fileName: string }> {
  const result = await read(path)
  if (!result.ok) throw new InputError([result.message])
  return { workspace: result.workspace, fileName: basename(path) }
}

/** "Demo (the embedded demo service), config production". */
export { targetText } from '../../shared/test-cases/target-text'
