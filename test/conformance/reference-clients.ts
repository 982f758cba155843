import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { spawnGroup, stopGroup } from '../fixtures/process-group'

/**
 * The official clients of ../shared/reference-clients, made runnable as a
 * user's program would use them: the TypeScript client compiled once (with
 * the project's own TypeScript, by the folder's build script) into a
 * temporary `node_modules/@spinque/query-api`, and the Python client on
 * PYTHONPATH under its import name `spinque_query_api`. Programs get a
 * fresh HOME each (the Python client caches tokens in ~/.cache) and an
 * environment of their own: PATH, HOME and what the test passes, no more.
 */

const ROOT = resolve(__dirname, '../..')
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const run = promisify(execFile)

export const PYTHON_MISSING =
  "The Python reference client needs python3 with the requests module: install Debian's python3-requests (sudo apt-get install python3-requests, or run scripts/setup.sh), or pip install requests."
export const CURL_MISSING = "The curl texts need curl: install Debian's curl (sudo apt-get install curl, or run scripts/setup.sh)."

export interface ProgramRun {
  code: number | null
  stdout: string
  stderr: string
}

export interface ReferenceClients {
  /** The compiled TypeScript client, for `require` in the test itself. */
  typeScriptClientDir: string
  runTypeScript(source: string, env?: Record<string, string>): Promise<ProgramRun>
  runPython(source: string, env?: Record<string, string>): Promise<ProgramRun>
  runBash(source: string, env?: Record<string, string>): Promise<ProgramRun>
  close(): void
}

/** Fails with the sentence saying what to install, rather than letting the tests skip. */
export async function requireTools(): Promise<void> {
  await run('python3', ['-c', 'import requests']).catch(() => {
    throw new Error(PYTHON_MISSING)
  })
  await run('curl', ['--version']).catch(() => {
    throw new Error(CURL_MISSING)
  })
}

/** Runs one program to its end (a guard stops it after two minutes: a hang, never a measure). */
function runProgram(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<ProgramRun> {
  return new Promise((done, fail) => {
    const child = spawnGroup(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const guard = setTimeout(() => void stopGroup(child, 'SIGKILL'), 120_000)
    child.once('error', (error) => {
      clearTimeout(guard)
      fail(error)
    })
    child.once('close', (code) => {
      clearTimeout(guard)
      done({ code, stdout, stderr })
    })
  })
}

/** Opens the clients found in `clientsDir` (see reference-clients-location.ts). */
export async function openReferenceClients(clientsDir: string): Promise<ReferenceClients> {
  await requireTools()
  const dir = mkdtempSync(join(tmpdir(), 'qe-reference-clients-'))
  try {
    const typeScriptClientDir = join(dir, 'node_modules/@spinque/query-api')
    await run('bash', [join(clientsDir, 'build-query-api-ts.sh'), typeScriptClientDir], { cwd: ROOT })
    writeFileSync(join(typeScriptClientDir, 'package.json'), JSON.stringify({ name: '@spinque/query-api', main: 'index.js' }))
    const pythonPath = join(dir, 'python')
    mkdirSync(pythonPath)
    symlinkSync(join(clientsDir, 'query-api-python/spinque-query-api'), join(pythonPath, 'spinque_query_api'))
    const programs = join(dir, 'programs')
    mkdirSync(programs)
    let count = 0

    const start = async (extension: string, source: string, env: Record<string, string>, command: (file: string) => [string, string[]]) => {
      const name = `program-${++count}`
      const home = join(dir, 'homes', name)
      mkdirSync(join(home, '.cache'), { recursive: true })
      const file = join(programs, `${name}.${extension}`)
      writeFileSync(file, source)
      const [program, args] = command(file)
      const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: '1' }
      // The suite's mark, so a program left running is found (test/fixtures/process-leaks.ts).
      if (process.env.QE_TEST_RUN) base.QE_TEST_RUN = process.env.QE_TEST_RUN
      try {
        return await runProgram(program, args, programs, { ...base, ...env })
      } finally {
        rmSync(home, { recursive: true, force: true })
      }
    }

    return {
      typeScriptClientDir,
      runTypeScript: (source, env = {}) => start('ts', source, env, (file) => [TSX, [file]]),
      runPython: (source, env = {}) => start('py', source, env, (file) => ['python3', [file]]),
      runBash: (source, env = {}) => start('sh', source, env, (file) => ['bash', [file]]),
      close: () => rmSync(dir, { recursive: true, force: true }),
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

/** Runs `tasks` with at most `limit` at once, answers in order. */
export async function bounded<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++
      results[index] = await tasks[index]!()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker))
  return results
}
