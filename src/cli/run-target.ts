import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BuiltInConnection } from '../main/connections/connection-registry'
import { ConnectionStore } from '../main/connections/connection-store'
import { defaultDataDir } from '../main/app/data-dir'
import { decodeBoundSecret, originOf } from '../main/credentials/bound-secret'
import { openSecretStore } from '../main/credentials/open-secret-store'
import { memorySecretStore } from '../main/credentials/secret-store'
import type { QueryRunner, QueryTarget } from '../main/http/query-runner'
import type { RunningService } from '../service'
import { ExplorerError } from '../shared/ipc/errors'
import type { Redactor } from '../shared/security/redaction'
import { systemClock, type Clock } from '../shared/time/clock'
import type { TargetOverrides } from '../shared/test-cases/case-request'
import type { Workspace, WorkspaceConnection } from '../shared/workspace/workspace-file'
import { InputError } from './command'
import { startEmbeddedDemo, usesDemo } from './embedded-demo'

/**
 * Where `query-explorer test` and `compare` send their queries: one of the
 * workspace file's connections, with flags overriding its fields, the secret
 * from the environment, and the app's own runner and token manager (one
 * token for the whole run). With the embedded demo, the service runs in this
 * process.
 */

export const SECRET_VARIABLE = 'QUERY_EXPLORER_CLIENT_SECRET'

/** How long a run waits out a 429's Retry-After before giving up, unless --max-wait says otherwise. */
export const DEFAULT_MAX_WAIT_SECONDS = 3600

/** `QUERY_EXPLORER_SECRET_<CONNECTION>`: the connection's name in capitals, other characters as `_`. */
export function connectionSecretVariable(name: string): string {
  return `QUERY_EXPLORER_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`
}

export interface ConnectionFlags {
  connection?: string | undefined
  authUrl?: string | undefined
  queryUrl?: string | undefined
  workspace?: string | undefined
  clientId?: string | undefined
  /** true: the embedded demo; undefined: the demo when the file's connection is the app's Demo and no URL is overridden. */
  demo?: boolean | undefined
  /** --auth-url-must-match: the only origin the run may send a client secret to (a CI job pins the hosts it trusts). */
  authOrigin?: string | undefined
  /** --query-url-must-match: the only origin the run may send a token to. */
  queryOrigin?: string | undefined
}

export interface RunTarget {
  runner: QueryRunner
  /** The target of a file connection (the chosen one for every case). */
  target: QueryTarget
  connection: WorkspaceConnection
  /** "Demo (embedded)", "Staging": for reports. */
  label: string
  /** Waits for a token once, before the cases: a 429 waits for its Retry-After (at most `maxWaitSeconds`) and says so. */
  warmUp(say: (line: string) => void, maxWaitSeconds?: number): Promise<void>
  close(): Promise<void>
}

/** The connection a run uses: named by a flag (its name or file id), else the file's only or first one. */
export function chooseConnection(workspace: Workspace, name: string | undefined, fileName: string): WorkspaceConnection {
  if (workspace.connections.length === 0) throw new InputError([`${fileName}: the workspace has no connection to run on.`])
  if (name === undefined) return workspace.connections[0]!
  const found = workspace.connections.find((connection) => connection.name === name) ?? workspace.connections.find((connection) => connection.id === name)
  if (!found) {
    throw new InputError([`--connection: "${name}" is not a connection of ${fileName} (it has: ${workspace.connections.map((connection) => `"${connection.name}"`).join(', ')}).`])
  }
  return found
}

export async function openRunTarget(
  workspace: Workspace,
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  fileName: string,
  /** What the Retry-After wait sleeps on and tokens are timed by; tests pass a manual one. */
  clock: Clock = systemClock,
  /** Told the secret and every token the run handles, so that no spelling of them is printed or written (io.secrets). */
  redactor?: Redactor,
): Promise<RunTarget> {
  const chosen = chooseConnection(workspace, flags.connection, fileName)
  const useDemo = usesDemo(chosen, flags)
  let service: RunningService | null = null
  let secret: string | undefined
  let connection: WorkspaceConnection = {
    ...chosen,
    ...(flags.authUrl !== undefined ? { authUrl: flags.authUrl } : {}),
    ...(flags.queryUrl !== undefined ? { queryUrl: flags.queryUrl } : {}),
    ...(flags.workspace !== undefined ? { workspace: flags.workspace } : {}),
    ...(flags.clientId !== undefined ? { clientId: flags.clientId } : {}),
  }
  let reuseToken = false
  // Loaded when a run needs them, not on every start of the command line (--help, url, parse…).
  const [{ TokenManager }, { ConnectionRegistry, secretKey }, { HttpClient }, { QueryRunner }] = await Promise.all([
    import('../main/auth/token-manager'),
    import('../main/connections/connection-registry'),
    import('../main/http/http-client'),
    import('../main/http/query-runner'),
  ])
  if (useDemo) {
    const demo = await startEmbeddedDemo(connection)
    service = demo.service
    connection = demo.connection
    secret = demo.secret
  } else {
    const problems = urlProblems(connection, flags)
    if (problems.length > 0) throw new InputError(problems)
    if (connection.clientId !== '') {
      const specific = connectionSecretVariable(connection.name)
      secret = env[specific] || env[SECRET_VARIABLE] || undefined
      let refused: string | null = null
      if (!secret) {
        const saved = await appKeychainSecret(connection, env)
        if (saved && 'secret' in saved) {
          secret = saved.secret
          // The app's profile has this very auth and query origin: the token it holds may be shared.
          reuseToken = true
        } else if (saved) refused = saved.refused
      }
      if (!secret) {
        throw new InputError([
          ...(refused ? [refused] : []),
          `No client secret for the connection "${connection.name}": set ${SECRET_VARIABLE} or ${specific} in the environment, or save the connection in the app with its secret (a secret is never read from a flag or a file).`,
        ])
      }
    }
  }

  const http = new HttpClient()
  if (secret) redactor?.add(secret)
  const tokens = new TokenManager(http, () => clock.now(), (value) => redactor?.add(value))
  const dataDir = mkdtempSync(join(tmpdir(), 'qe-cli-'))
  const id = 'cli'
  const secrets = memorySecretStore('The command line keeps the secret for this run only.')
  if (secret) await secrets.set(secretKey(id), secret)
  const builtIn: BuiltInConnection = { ...connection, id, secrets }
  const registry = new ConnectionRegistry(new ConnectionStore(dataDir), secrets, tokens, [builtIn])
  const runner = new QueryRunner(http, tokens, { ttlMs: 0 })
  const target = registry.target(id)
  // ForceReauth false would hand back the token the account holds now, wherever it was issued for (the app's
  // connection to another query host, say): the run asks for a token of its own unless the app's own profile,
  // with this very auth and query origin, lent the secret.
  if (!reuseToken) tokens.rebind(id)
  return {
    runner,
    target,
    connection,
    label: service ? `${chosen.name} (the embedded demo service)` : connection.name,
    async warmUp(say, maxWaitSeconds = DEFAULT_MAX_WAIT_SECONDS) {
      const account = registry.account(id)
      if (!account) return
      for (let attempt = 0; ; attempt++) {
        try {
          await tokens.token(account)
          return
        } catch (error) {
          const quota = error instanceof ExplorerError && error.code === 'quota' ? error : null
          const wait = quota?.extra.retryAfterSeconds
          if (!quota || wait === undefined || attempt >= 2) throw error
          if (wait > maxWaitSeconds) {
            throw new ExplorerError('quota', `${quota.message} That is longer than --max-wait ${maxWaitSeconds} s allows.`, quota.extra)
          }
          say(`The auth host answered 429 (token request quota exceeded): waiting ${wait} s, as its Retry-After asks, before trying again.`)
          await clock.sleep(wait * 1000)
        }
      }
    },
    async close() {
      await http.close()
      await service?.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Bad URLs, and URLs whose origin the run was told not to trust (--auth-url-must-match, --query-url-must-match). */
function urlProblems(connection: WorkspaceConnection, flags: ConnectionFlags): string[] {
  const problems: string[] = []
  for (const [field, value, pinned, pinFlag] of [
    ['--auth-url', connection.authUrl, flags.authOrigin, '--auth-url-must-match'],
    ['--query-url', connection.queryUrl, flags.queryOrigin, '--query-url-must-match'],
  ] as const) {
    if (field === '--auth-url' && connection.clientId === '' && value === '') continue
    if (!/^https?:\/\/[^/?#\s]+/i.test(value)) {
      problems.push(`${field}: "${clipped(value)}" is not an http(s) URL.`)
      continue
    }
    if (pinned !== undefined && originOf(value) !== pinned) {
      problems.push(`${pinFlag}: the connection "${clipped(connection.name)}" points at ${clipped(originOf(value) || value)}, not ${pinned}; nothing was sent.`)
    }
  }
  return problems
}

/** An origin given to --auth-url-must-match or --query-url-must-match, in the form URL.origin writes it. */
export function pinnedOrigin(flag: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  const origin = originOf(text)
  if (!/^https?:/.test(origin)) throw new InputError([`${flag}: "${clipped(text)}" is not an http(s) origin such as https://auth.example.com.`])
  return origin
}

/** A file's value, cut to a length a message can hold; control characters are the terminal layer's to escape (terminal-io.ts). */
const clipped = (text: string) => text.slice(0, 200)

/**
 * The secret the app keeps in the OS keychain for a saved connection with
 * the same workspace and client ID whose auth **and** query URLs have the
 * file connection's origins: the secret goes only where it was entered for,
 * and the token it earns only where the app sends that profile's tokens. A
 * profile that matches but for the query origin is named, with why its
 * secret is not used. The app's data folder and keychain service are its
 * defaults, or QUERY_EXPLORER_DATA_DIR and QUERY_EXPLORER_KEYCHAIN_SERVICE.
 */
async function appKeychainSecret(connection: WorkspaceConnection, env: NodeJS.ProcessEnv): Promise<{ secret: string } | { refused: string } | null> {
  const store = new ConnectionStore(defaultDataDir(env))
  try {
    await store.load({ setAside: false })
  } catch {
    return null
  }
  const authOrigin = originOf(connection.authUrl)
  const queryOrigin = originOf(connection.queryUrl)
  const sameAccount = store
    .list()
    .filter((saved) => originOf(saved.authUrl) === authOrigin && authOrigin !== '' && saved.clientId === connection.clientId && saved.workspace === connection.workspace)
  const profile = sameAccount.find((saved) => originOf(saved.queryUrl) === queryOrigin)
  if (!profile) {
    const other = sameAccount[0]
    return other
      ? {
          refused: `The secret saved in the app for "${clipped(other.name)}" was not used: that connection sends its tokens to ${originOf(other.queryUrl)}, and "${clipped(connection.name)}" would send them to ${clipped(queryOrigin || connection.queryUrl)}.`,
        }
      : null
  }
  const { secretKey } = await import('../main/connections/connection-registry')
  const keychain = await openSecretStore(env.QUERY_EXPLORER_KEYCHAIN_SERVICE || undefined)
  if (keychain.kind !== 'os') return null
  const stored = await keychain.get(secretKey(profile.id)).catch(() => null)
  if (stored === null) return null
  const bound = decodeBoundSecret(stored, originOf(profile.authUrl))
  return bound.origin === authOrigin ? { secret: bound.secret } : null
}

/** The run's configuration and API, from the flags. */
export function overridesOf(values: { config?: string | undefined; api?: string | undefined }): TargetOverrides {
  return { config: values.config, api: values.api }
}

/**
 * Gets the target ready before a command runs on it (a token, the demo up):
 * what the service or the auth server said when it cannot be, as bad input
 * naming the connection (exit 2), not as a fault of ours.
 */
export async function warmedUp(target: Pick<RunTarget, 'warmUp' | 'connection'>, say: (line: string) => void, maxWaitSeconds?: number): Promise<void> {
  try {
    await target.warmUp(say, maxWaitSeconds)
  } catch (error) {
    if (error instanceof ExplorerError) throw new InputError([`${target.connection.name}: ${error.message}`])
    throw error
  }
}
