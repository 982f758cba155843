import { fork, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import type { Socket } from 'node:net'
import { dirname, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { builtEntry, MissingBuiltEntry } from '../../node/built-entry'
import type { ServiceFacts } from '../../service'
import type { StartMessage, StartReply } from '../../service/process-protocol'

/**
 * The embedded demo service in a child process. A query can keep the service
 * busy for seconds (up to its per-request budget); in the app's own process
 * that would freeze every IPC call and the browser host's page with it.
 */

/** A service the app can reach and stop: the facts of a started one, or a RunningService of the caller's. */
export interface DemoService extends ServiceFacts {
  /** The process serving it, when it has one of its own (for diagnostics). */
  pid?: number
  close(): Promise<void>
}

export interface DemoServiceOptions {
  /** Passed to startService in the child; the default is the demo account on a free port. */
  service?: StartMessage['options']
  /** Each line the service writes to stderr (its fault reports; never a secret). */
  log?: (line: string) => void
  /** A start takes about 0.2 s from the dataset snapshot, 1–2 s when it must rebuild it; one that takes this long is stuck. */
  startTimeoutMs?: number
}

/** The built entry (electron.vite.config.ts: `demo-service`). */
const BUILT_ENTRY = 'demo-service.js'
const START_TIMEOUT_MS = 30_000
/** SIGTERM ends the child at once (it sets no handler), even mid-query; SIGKILL is for a child that somehow outlives it. */
const KILL_AFTER_MS = 1_500
/** Enough to say why a child died before it was ready. */
const KEPT_LINES = 5

interface Launch {
  entry: string
  execArgv: string[]
}

/**
 * From sources (vitest, tsx) this module is a .ts file and so is the entry,
 * which the child loads through tsx. Built, the entry is a sibling bundle in
 * out/main/ (src/node/built-entry.ts finds it, as it finds the worker threads').
 */
function launch(): Launch {
  const here = dirname(__filename)
  if (__filename.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(__filename).resolve('tsx')).href
    return { entry: resolve(here, '../../service/process-entry.ts'), execArgv: ['--import', tsx] }
  }
  try {
    return { entry: builtEntry(__filename, [BUILT_ENTRY]), execArgv: [] }
  } catch (error) {
    throw error instanceof MissingBuiltEntry ? new Error(`The demo service could not start: ${error.message}`) : error
  }
}

export async function startDemoService(options: DemoServiceOptions = {}): Promise<DemoService> {
  const { entry, execArgv } = launch()
  // Electron's fork runs its own binary as plain Node (ELECTRON_RUN_AS_NODE), which is all the child needs.
  const child = fork(entry, [], { execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'json' })
  const recent: string[] = []
  const log = options.log ?? (() => undefined)
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      recent.push(line)
      if (recent.length > KEPT_LINES) recent.shift()
      log(line)
    })
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  let closing: Promise<void> | null = null
  let facts: ServiceFacts
  try {
    facts = await ready(child, options, recent)
  } catch (error) {
    await stop(child, exited)
    throw error
  }
  child.once('exit', (code, signal) => {
    if (!closing) log(`stopped unexpectedly (${signal ?? `exit code ${code}`}); the Demo connection is unreachable until the app restarts`)
  })
  // A background service must not keep the app alive; if the app ends without close(), the child sees its channel close and exits.
  child.unref()
  child.channel?.unref()
  for (const stream of [child.stdout, child.stderr]) (stream as Socket | null)?.unref()

  return {
    ...facts,
    ...(child.pid !== undefined ? { pid: child.pid } : {}),
    close: () => (closing ??= stop(child, exited)),
  }
}

function ready(child: ChildProcess, options: DemoServiceOptions, recent: string[]): Promise<ServiceFacts> {
  const timeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS
  return new Promise<ServiceFacts>((resolve, reject) => {
    const done = (settle: () => void) => {
      clearTimeout(timer)
      child.off('message', onMessage)
      child.off('exit', onExit)
      child.off('error', onError)
      settle()
    }
    const onMessage = (message: StartReply) => {
      if (message?.type === 'ready') done(() => resolve(message.facts))
      else if (message?.type === 'failed') done(() => reject(new Error(`The demo service could not start: ${message.message}`)))
    }
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      const why = recent.length ? `: ${recent.join(' | ')}` : ''
      done(() => reject(new Error(`The demo service could not start: its process ended (${signal ?? `exit code ${code}`}) before it was ready${why}`)))
    }
    const onError = (error: Error) => done(() => reject(new Error(`The demo service could not start: ${error.message}`)))
    const timer = setTimeout(
      () => done(() => reject(new Error(`The demo service could not start: it was not ready within ${Math.round(timeoutMs / 1000)} s`))),
      timeoutMs,
    )
    child.on('message', onMessage)
    child.on('exit', onExit)
    child.on('error', onError)
    const start: StartMessage = { type: 'start', options: options.service ?? {} }
    // A failed send means the child is gone; onExit or onError says why.
    child.send(start, () => undefined)
  })
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const gone = await Promise.race([exited.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), KILL_AFTER_MS)))])
  clearTimeout(timer)
  if (gone) return
  child.kill('SIGKILL')
  await exited
}
