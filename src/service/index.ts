import type { AddressInfo } from 'node:net'
import { AccountDirectory, DEMO_ACCOUNT, createAccount, type Account, type AccountSpec } from './auth/accounts'
import { TokenQuota } from './auth/quota'
import { TokenStore } from './auth/tokens'
import { JUDGE_PATH, createJudgeHost } from './http/judge-route'
import { AUTH_PATH, QUERY_PATH, createServiceServer, type TokenRoute } from './http/server'
import { DEFAULT_MAX_WAITING, startQueryThread } from './query/query-thread'
import { DEFAULT_QUERY_BUDGET_MS } from './query/work-budget'
import { DEMO_WORKSPACE, hostedWorkspaces } from './workspace/workspaces'
import { systemClock, type Clock } from '../shared/time/clock'

/**
 * The embedded service: the seed's auth host and Query API over a real
 * dataset, on one loopback port. The app starts it as its Demo connection;
 * tests and `npm run service` start it the same way.
 */

export type { AccountSpec, Role } from './auth/accounts'
export type { TokenRoute } from './http/server'

export interface ServiceOptions {
  /** 0 or left out: any free port. */
  port?: number
  host?: '127.0.0.1'
  /** Lifetime of issued tokens; default 3600. */
  tokenLifetimeSeconds?: number
  /** Token requests per account and workspace per hour; default 20. */
  quota?: number
  /** The quota's window; default one hour. */
  quotaWindowMs?: number
  /** What token lifetimes and the quota window are measured on; default the system clock (tests move a manual one on). */
  clock?: Pick<Clock, 'now'>
  /** Default: the built-in demo account with a secret generated for this run. */
  accounts?: AccountSpec[]
  /** A request (headers and body) must arrive within this time; default 10 000 ms. Waiting for the query thread once it has arrived is not counted. */
  requestTimeoutMs?: number
  /** Milliseconds of work one Query API request may take before it is refused with 503; default 5 000. */
  queryBudgetMs?: number
  /** The most Query API requests waiting for the query thread at once; past it a request is refused with 503 at once (default DEFAULT_MAX_WAITING). */
  maxWaitingQueries?: number
  /** Where internal faults are reported; default stderr. Never receives secrets. */
  log?: (message: string) => void
}

export interface RunningService {
  /** POST {authUrl}/api/auth requests a token. */
  authUrl: string
  /** {queryUrl}[/<version>]/<workspace>/api/<api>/… */
  queryUrl: string
  /** The demo judge's OpenAI-compatible API root: POST {judgeUrl}/chat/completions, GET {judgeUrl}/models (model `demo-judge`). */
  judgeUrl: string
  workspace: string
  apis: string[]
  /** The first account: by default the demo account, client id `demo`. */
  account: { clientId: string; clientSecret: string }
  /** Every account with the secret it was started with, to report generated ones once. */
  accounts: readonly Account[]
  /** Milliseconds spent loading and indexing the dataset and listening. */
  startupMs: number
  /** Token requests served, over both routes or on one (`json`: /api/auth, `oauth`: /oauth/token). */
  tokenRequestCount(route?: TokenRoute): number
  revokeTokens(): void
  close(): Promise<void>
}

/** What a client needs to reach a running service; plain data, so it can cross a process boundary. */
export type ServiceFacts = Pick<RunningService, 'authUrl' | 'queryUrl' | 'workspace' | 'apis' | 'account' | 'startupMs'>

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const started = performance.now()
  const lifetime = options.tokenLifetimeSeconds ?? 3600
  const quotaLimit = options.quota ?? 20
  const budgetMs = options.queryBudgetMs ?? DEFAULT_QUERY_BUDGET_MS
  if (!(lifetime > 0)) throw new RangeError(`tokenLifetimeSeconds must be above 0, not ${lifetime}`)
  if (!Number.isInteger(quotaLimit) || quotaLimit < 1) throw new RangeError(`quota must be a whole number, 1 or more, not ${quotaLimit}`)
  if (!(budgetMs > 0)) throw new RangeError(`queryBudgetMs must be above 0, not ${budgetMs}`)
  const maxWaiting = options.maxWaitingQueries ?? DEFAULT_MAX_WAITING
  if (!Number.isInteger(maxWaiting) || maxWaiting < 1) throw new RangeError(`maxWaitingQueries must be a whole number, 1 or more, not ${maxWaiting}`)
  const accountList = (options.accounts && options.accounts.length > 0 ? options.accounts : [DEMO_ACCOUNT]).map(createAccount)
  const accounts = new AccountDirectory(accountList)
  const workspaces = hostedWorkspaces()
  const now = () => (options.clock ?? systemClock).now()
  const tokens = new TokenStore(lifetime, now)
  const tokenRequests: Record<TokenRoute, number> = { json: 0, oauth: 0 }
  const log = options.log ?? ((message: string) => process.stderr.write(`[service] ${message}\n`))
  // The dataset loads on the query thread while this one starts listening.
  const queries = startQueryThread({ budgetMs, maxWaiting, log })

  const server = createServiceServer(
    {
      auth: { accounts, tokens, quota: new TokenQuota(quotaLimit, options.quotaWindowMs, now), workspaces: new Set(workspaces.keys()) },
      query: { prefix: [QUERY_PATH.slice(1)], workspaces, tokens, accounts, queries },
      judge: createJudgeHost({ largest: (name, wanted) => queries.largest(name, wanted), now }),
      onTokenRequest: (route) => void tokenRequests[route]++,
      log,
    },
    { requestMs: options.requestTimeoutMs ?? 10_000 },
  )
  const host = options.host ?? '127.0.0.1'
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const stop = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()))
      server.closeAllConnections()
    })
  const [listened, loaded] = await Promise.allSettled([listening, queries.started])
  if (listened.status === 'rejected' || loaded.status === 'rejected') {
    await queries.close()
    if (listened.status === 'fulfilled') await stop()
    throw listened.status === 'rejected' ? listened.reason : (loaded as PromiseRejectedResult).reason
  }
  const { port } = server.address() as AddressInfo
  const origin = `http://${host}:${port}`
  const primary = accountList[0]!
  const demo = workspaces.get(DEMO_WORKSPACE)!
  return {
    authUrl: origin + AUTH_PATH,
    judgeUrl: origin + JUDGE_PATH,
    queryUrl: origin + QUERY_PATH,
    workspace: DEMO_WORKSPACE,
    apis: [...demo.apis.keys()],
    account: { clientId: primary.clientId, clientSecret: primary.clientSecret },
    accounts: accountList,
    startupMs: Math.round(performance.now() - started),
    tokenRequestCount: (route) => (route ? tokenRequests[route] : tokenRequests.json + tokenRequests.oauth),
    revokeTokens: () => tokens.revokeAll(),
    close: async () => {
      await queries.close()
      await stop()
    },
  }
}
