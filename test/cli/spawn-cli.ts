import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { processIo, type CliIo } from '../../src/cli/io'
import { main } from '../../src/cli/main'
import type { Clock } from '../../src/shared/time/clock'
import { spawnGroup, stopGroup } from '../fixtures/process-group'

/** The real launcher, spawned as a person or CI runs it. */
export const ROOT = resolve(__dirname, '../..')
export const BIN = join(ROOT, 'bin/query-explorer.cjs')
export const WORLD = join(ROOT, 'examples/world.qxw.json')

export interface Run {
  status: number | null
  stdout: string
  stderr: string
}

/**
 * Spawned without blocking, so a service started by the test keeps answering
 * while the command runs. The caller's QUERY_EXPLORER_CLIENT_SECRET is left
 * out and the app's data folder is one that does not exist (so no saved
 * connection of this machine lends its secret): a test gives the command
 * exactly the environment it means to.
 */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnCli(args, env)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }))
  })
}

function spawnCli(args: string[], env: NodeJS.ProcessEnv) {
  const base = { ...process.env }
  delete base.QUERY_EXPLORER_CLIENT_SECRET
  return spawnGroup(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...base, QUERY_EXPLORER_DATA_DIR: join(tmpdir(), 'qe-cli-no-app-data'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
}

export interface Serving {
  /** What the command printed up to the moment `ready` held. */
  printed: Run
  /** Sends SIGTERM (as Ctrl-C would SIGINT) and gives what the command printed in all, with its exit status. */
  stop(): Promise<Run>
}

/**
 * A command that serves until stopped (`serve`, `copy-as` on the demo),
 * spawned as `cli` spawns one: resolves once `ready` holds for what it
 * printed so far, or with its end should it exit first. The test stops it.
 */
export function cliServing(args: string[], ready: (run: Run) => boolean, env: NodeJS.ProcessEnv = {}): Promise<Serving> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnCli(args, env)
    const run: Run = { status: null, stdout: '', stderr: '' }
    const closed = new Promise<Run>((resolveClosed) => child.on('close', (status) => resolveClosed({ ...run, status })))
    const serving: Serving = {
      printed: run,
      stop: async () => {
        await stopGroup(child, 'SIGTERM')
        return closed
      },
    }
    let settled = false
    const check = () => {
      if (settled || !ready(run)) return
      settled = true
      resolvePromise({ ...serving, printed: { ...run } })
    }
    child.stdout!.on('data', (chunk: Buffer) => {
      run.stdout += chunk.toString()
      check()
    })
    child.stderr!.on('data', (chunk: Buffer) => {
      run.stderr += chunk.toString()
      check()
    })
    child.on('error', reject)
    void closed.then((end) => {
      if (!settled) resolvePromise({ printed: end, stop: async () => end })
      settled = true
    })
  })
}

/**
 * The same command run inside the test's process, with the test's clock: a
 * Retry-After wait then moves that clock on instead of sleeping, so a quota
 * window of an hour runs out at once and nothing races a real timer.
 */
export async function cliInProcess(args: string[], options: { env?: NodeJS.ProcessEnv; clock?: Clock } = {}): Promise<Run> {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = {
    ...processIo(),
    out: (text) => void out.push(text),
    err: (text) => void err.push(text),
    env: { QUERY_EXPLORER_DATA_DIR: join(tmpdir(), 'qe-cli-no-app-data'), ...options.env },
    ...(options.clock ? { clock: options.clock } : {}),
  }
  const status = await main(args, io)
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join('')
  return { status, stdout: text(out), stderr: text(err) }
}
