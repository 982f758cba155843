import { join } from 'node:path'
import type { AppInfo } from '../../shared/ipc/contract'
import { TokenManager } from '../auth/token-manager'
import { ConnectionRegistry, secretKey, type BuiltInConnection } from '../connections/connection-registry'
import { ConnectionStore } from '../connections/connection-store'
import { openSecretStore, type KeychainTimeouts } from '../credentials/open-secret-store'
import { memorySecretStore, type SecretStore } from '../credentials/secret-store'
import { startDemoService, type DemoService } from '../demo/demo-service-process'
import { HistoryStore } from '../history/history-store'
import { DataStore } from '../storage/data-store/data-store'
import { createDispatcher, type Dispatch } from '../ipc/dispatch'
import type { HandlerTable } from '../ipc/handler-table'
import { appHandlers } from '../ipc/handlers/app-handlers'
import { connectionHandlers } from '../ipc/handlers/connection-handlers'
import { ExportJobs } from '../export/export-jobs'
import { exportHandlers } from '../ipc/handlers/export-handlers'
import { compareHandlers } from '../ipc/handlers/compare-handlers'
import { copyAsHandlers } from '../ipc/handlers/copy-as-handlers'
import { historyHandlers } from '../ipc/handlers/history-handlers'
import { testHandlers } from '../ipc/handlers/test-handlers'
import { relevanceHandlers } from '../ipc/handlers/relevance-handlers'
import { EvaluationRuns } from '../evaluation/evaluation-runs'
import { EvaluationStore } from '../evaluation/evaluation-store'
import { experimentHandlers } from '../ipc/handlers/experiment-handlers'
import { ExperimentRuns } from '../experiments/experiment-runs'
import { ExperimentStore } from '../experiments/experiment-store'
import { TestRuns } from '../test-cases/test-runs'
import { WorkspaceSession } from '../workspaces/workspace-session'
import { queryHandlers } from '../ipc/handlers/query-handlers'
import { workspaceHandlers } from '../ipc/handlers/workspace-handlers'
import { viewPrefsHandlers } from '../ipc/handlers/view-prefs-handlers'
import { ViewPrefsStore } from '../storage/view-prefs-store'
import { DownloadTickets } from '../host/download-tickets'
import { UploadTickets } from '../host/upload-tickets'
import type { FileDialogs } from '../host/file-dialogs'
import { createLogger, type Logger } from '../logging/logger'
import { HttpClient, type HttpClientOptions } from '../http/http-client'
import { QueryRunner } from '../http/query-runner'
import { judgeHandlers } from '../ipc/handlers/judge-handlers'
import { JudgeRuns } from '../judges/judge-jobs'
import { JudgeKeys } from '../judges/judge-keys'
import { judgeCacheOf } from '../storage/data-store/judge-cache-table'
import type { ReplyCacheOptions } from '../http/reply-cache'
import { systemClock, type Clock } from '../../shared/time/clock'
import { startupMarks, type StartupMarks } from './startup-marks'

export const DEMO_CONNECTION_ID = 'demo'

export interface AppCoreOptions {
  dataDir: string
  host: AppInfo['host']
  version: string
  /** OS keychain service name; tests use their own so they never touch a user's entries. */
  keychainService?: string
  /** How long keychain calls may take before the keychain counts as not answering (tests shorten it). */
  keychainTimeouts?: KeychainTimeouts
  /** Start the embedded demo service in a child process (default), use one already running (a RunningService will do), or none. */
  demo?: 'embedded' | 'none' | DemoService
  http?: HttpClientOptions
  /** The short-lived cache of identical Query API requests; `ttlMs: 0` turns it off. */
  replyCache?: ReplyCacheOptions
  echoLog?: boolean
  /** What token lifetimes, the token quota and the reply cache are timed by; tests move a manual clock on. */
  clock?: Pick<Clock, 'now'>
  /** The native open/save dialogs (Electron); none in the browser host, whose page picks and downloads files itself. */
  dialogs?: FileDialogs
  /** The browser host's one-time download addresses, shared with the host that serves them; made here when not given. */
  downloads?: DownloadTickets
  /** The browser host's uploads (files the page sends in parts), shared with the host that receives them; made here when not given. */
  uploads?: UploadTickets
}

/** Everything both hosts need: the handler table behind one dispatcher. */
export interface AppCore {
  dispatch: Dispatch
  log: Logger
  secrets: SecretStore
  history: HistoryStore
  demo: DemoService | null
  /** Exports finished in the browser host, waiting to be fetched (null in Electron). */
  downloads: DownloadTickets | null
  /** Files the browser-host page sent, waiting for the channel that reads them (null in Electron, whose main reads the file its dialog picked). */
  uploads: UploadTickets | null
  close(): Promise<void>
}

export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const log = createLogger(options.dataDir, options.echoLog)
  const marks = startupMarks()
  const ownsDemo = options.demo === undefined || options.demo === 'embedded'
  // The demo service is the longest part of the start (a process of its own loading 135k cities): it starts first and the rest happens meanwhile.
  const demoStarting: Promise<DemoService | null> = ownsDemo
    ? marks.time('demo service', () => startDemoService({ log: (line) => log.info(`demo service: ${line}`) }))
    : Promise.resolve(options.demo === 'none' ? null : (options.demo as DemoService))
  // Awaited below; until then a failed start must not count as an unhandled rejection.
  demoStarting.catch(() => undefined)
  try {
    return await assembleCore(options, log, marks, { starting: demoStarting, owned: ownsDemo })
  } catch (error) {
    // A start that failed after the demo service came up must not leave its process behind.
    if (ownsDemo) await demoStarting.then((started) => started?.close(), () => undefined)
    throw error
  }
}

/** The demo service on its way, and whether this core started it (and so stops it). */
interface StartingDemo {
  starting: Promise<DemoService | null>
  owned: boolean
}

async function assembleCore(options: AppCoreOptions, log: Logger, marks: StartupMarks, demoStart: StartingDemo): Promise<AppCore> {
  const ownsDemo = demoStart.owned
  const secrets = await marks.time('keychain', () => openSecretStore(options.keychainService, undefined, options.keychainTimeouts))
  log.info(`secrets: ${secrets.kind} (${secrets.detail})`)
  const store = new ConnectionStore(options.dataDir)
  await store.load()
  if (store.problem) log.error(store.problem)

  const demo = await demoStart.starting
  const builtIns = demo ? [await demoConnection(demo, log)] : []
  const http = new HttpClient({ log: (line) => log.info(line), ...options.http })
  const redact = (value: string) => log.redact(value)
  const now = () => (options.clock ?? systemClock).now()
  const tokens = new TokenManager(http, now, redact)
  const registry = new ConnectionRegistry(store, secrets, tokens, builtIns, redact)
  const runner = new QueryRunner(http, tokens, options.replyCache, now)
  // One database a data folder, one thread writing it: History and the ratings journal share it.
  const data = new DataStore(options.dataDir)
  const history = new HistoryStore(data)
  // A damaged database is said in the log here, and by History in the window on each call.
  void history.problem().then((problem) => problem && log.error(`history: ${problem}`))
  const viewPrefs = new ViewPrefsStore(options.dataDir)
  await viewPrefs.load()
  if (viewPrefs.problem) log.error(viewPrefs.problem)
  const downloads = options.host === 'browser' ? (options.downloads ?? new DownloadTickets()) : null
  const uploads = options.host === 'browser' ? (options.uploads ?? new UploadTickets(join(options.dataDir, 'uploads'))) : null
  const exports = new ExportJobs({ dataDir: options.dataDir, dialogs: options.dialogs ?? null, registry, runner, log, downloads })

  const workspaceNotices: string[] = []
  const session = await WorkspaceSession.open({ dataDir: options.dataDir, dialogs: options.dialogs ?? null, registry, log, notice: (text) => workspaceNotices.push(text), data })
  const testRuns = new TestRuns(runner, log)
  // What the data folder's database found wrong at its open goes to the log and the window.
  const keptNote = (note: string) => {
    log.error(note)
    workspaceNotices.push(note)
  }
  // Kept evaluations and experiments live in the data folder's database; what its open found wrong (a damaged file set aside, old records skipped) is told.
  const evaluations = new EvaluationStore(data)
  const experimentStore = new ExperimentStore(data)
  void data.info().then((opened) => opened.notes.forEach(keptNote), () => undefined)
  const evaluationRuns = new EvaluationRuns(evaluations, log)
  const experimentRuns = new ExperimentRuns(log)
  const judgeRuns = new JudgeRuns(log)
  // A judge's key is told to the logger as it passes, so no log line or error text can carry it.
  const judgeKeys = new JudgeKeys(secrets, (key) => log.redact(key))
  const info = (): AppInfo => ({
    version: options.version,
    host: options.host,
    keychain: { kind: secrets.kind, detail: secrets.detail },
    demo: demo ? { connectionId: DEMO_CONNECTION_ID, workspace: demo.workspace } : null,
    lastConnectionId: registry.lastUsed(),
    notices: [...(store.problem ? [store.problem] : []), ...workspaceNotices],
  })

  const handlers: HandlerTable = {
    ...appHandlers(info),
    ...connectionHandlers(registry, tokens, runner),
    ...queryHandlers(registry, runner, { store: history, log }),
    ...historyHandlers(history),
    ...(await workspaceHandlers({ dataDir: options.dataDir, host: options.host, dialogs: options.dialogs ?? null, uploads, registry, log, session })),
    ...exportHandlers(exports),
    ...testHandlers({ session, registry, runner, runs: testRuns, log }),
    ...compareHandlers(registry, runner, log),
    ...relevanceHandlers({
      session,
      registry,
      runner,
      runs: evaluationRuns,
      store: evaluations,
      files: { dialogs: options.dialogs ?? null, uploads },
      downloads,
      exportsDir: join(options.dataDir, 'exports'),
      prefs: () => viewPrefs.get(),
    }),
    ...experimentHandlers({ session, registry, runner, runs: experimentRuns, evaluations, experiments: experimentStore, log }),
    ...judgeHandlers({ session, registry, runner, runs: judgeRuns, keys: judgeKeys, cache: judgeCacheOf(data), evaluations, experiments: experimentStore }),
    ...copyAsHandlers(registry, demo ? { connectionId: DEMO_CONNECTION_ID, secret: demo.account.clientSecret } : null),
    ...viewPrefsHandlers(viewPrefs),
  }
  log.info(`${marks.summary()}${demo && ownsDemo ? ` (the demo service's own start-up ${demo.startupMs} ms)` : ''}`)
  return {
    dispatch: createDispatcher(handlers, log),
    log,
    secrets,
    history,
    demo,
    downloads,
    uploads,
    async close() {
      await testRuns.close()
      await evaluationRuns.close()
      await experimentRuns.close()
      await judgeRuns.close()
      await exports.close()
      await downloads?.close()
      await uploads?.close()
      await http.close()
      if (ownsDemo && demo) await demo.close()
      await session.close()
      await history.close()
      await data.close()
    },
  }
}

/**
 * The demo connection points at the embedded service of this launch; its
 * generated secret and its tokens stay in memory, as they die with the service.
 */
async function demoConnection(demo: DemoService, log: Logger): Promise<BuiltInConnection> {
  const secrets = memorySecretStore('The demo account lives for this run only.')
  await secrets.set(secretKey(DEMO_CONNECTION_ID), demo.account.clientSecret)
  log.redact(demo.account.clientSecret)
  return {
    id: DEMO_CONNECTION_ID,
    name: 'Demo',
    authUrl: demo.authUrl,
    queryUrl: demo.queryUrl,
    workspace: demo.workspace,
    api: demo.apis.includes('places') ? 'places' : (demo.apis[0] ?? ''),
    config: 'default',
    clientId: demo.account.clientId,
    secrets,
  }
}
