import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { processIo, type CliIo } from '../../src/cli/io'
import { main } from '../../src/cli/main'
import type { Clock } from '../../src/shared/time/clock'
import { spawnGroup } from '../fixtures/process-group'

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
    const base = { ...process.env }
    delete base.QUERY_EXPLORER_CLIENT_SECRET
    const child = spawnGroup(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...base, QUERY_EXPLORER_DATA_DIR: join(tmpdir(), 'qe-cli-no-app-data'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }))
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
