import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

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
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...base, QUERY_EXPLORER_DATA_DIR: join(tmpdir(), 'qe-cli-no-app-data'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (status) => {
      clearTimeout(timer)
      resolvePromise({ status, stdout, stderr })
    })
  })
}
