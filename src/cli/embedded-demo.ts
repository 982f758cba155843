import type { RunningService } from '../service'
import type { WorkspaceConnection } from '../shared/workspace/workspace-file'

/**
 * The embedded demo service as the command line uses it: which file
 * connection stands for the app's Demo, and starting the demo in this
 * process with that connection pointed at it. `test`, `compare` and `eval`
 * run their queries on it; `copy-as` prints code aimed at it and serves it
 * while that code runs.
 */

/** The app's Demo as a workspace file describes it: its URLs stand for whichever port the demo has. */
export function isDemoConnection(connection: WorkspaceConnection): boolean {
  const local = (url: string) => /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(url)
  return connection.clientId === 'demo' && connection.workspace === 'world' && local(connection.authUrl) && local(connection.queryUrl)
}

export interface DemoChoice {
  /** true: the embedded demo whatever the connection (--demo); undefined: decided by the connection. */
  demo?: boolean | undefined
  authUrl?: string | undefined
  queryUrl?: string | undefined
}

/** Whether a run goes to the embedded demo: --demo says so, else the file's connection is the app's Demo and no URL is overridden. */
export function usesDemo(connection: WorkspaceConnection, choice: DemoChoice = {}): boolean {
  const overridden = choice.authUrl !== undefined || choice.queryUrl !== undefined
  return choice.demo ?? (!overridden && isDemoConnection(connection))
}

export interface StartedDemo {
  service: RunningService
  /** The file's connection with the demo's URLs, client ID and workspace. */
  connection: WorkspaceConnection
  /** The demo account's secret. */
  secret: string
}

/**
 * Starts the demo on a free port of 127.0.0.1 in this process. `secret` is
 * the demo account's secret when the caller has one to give (copy-as takes
 * the one the printed code will read); left out, the demo makes one for
 * this start, as the app's Demo does.
 */
export async function startEmbeddedDemo(connection: WorkspaceConnection, secret?: string): Promise<StartedDemo> {
  // Loaded when a demo is started, not on every start of the command line.
  const [{ startService }, { DEMO_ACCOUNT }] = await Promise.all([import('../service'), import('../service/auth/accounts')])
  const service = await startService({ port: 0, log: () => undefined, ...(secret !== undefined ? { accounts: [{ ...DEMO_ACCOUNT, clientSecret: secret }] } : {}) })
  return {
    service,
    connection: { ...connection, authUrl: service.authUrl, queryUrl: service.queryUrl, clientId: service.account.clientId, workspace: service.workspace },
    secret: service.account.clientSecret,
  }
}
