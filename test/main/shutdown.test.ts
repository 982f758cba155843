import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { spawnGroup, stopGroup } from '../fixtures/process-group'

/**
 * A stop asked for ends the process, in a real child process: what can be
 * closed is closed, a close that hangs is not waited for past the limit,
 * and a keychain call held by a native thread (which a normal exit would
 * wait for for good) ends the process by SIGKILL.
 */

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const MODULE = pathToFileURL(resolve('src/main/app/shutdown.ts')).href

/** Runs shutdown in a child whose close `closes` ('resolves' or 'hangs') and whose keychain is `held`; how it ended and what it printed. */
async function shutdownIn(closes: 'resolves' | 'hangs', held: boolean): Promise<{ code: number | null; signal: string | null; out: string }> {
  const code = `import(${JSON.stringify(MODULE)}).then((loaded) => {
    const { shutdown } = loaded.shutdown ? loaded : loaded.default
    const close = ${closes === 'resolves' ? "async () => { process.stdout.write('closed\\n') }" : "() => { process.stdout.write('closing\\n'); return new Promise(() => {}) }"}
    // A timer that would keep the process alive for a minute: only shutdown ends it sooner.
    setTimeout(() => process.stdout.write('never\\n'), 60_000)
    return shutdown(close, { held: () => ${held} }, 500)
  })`
  const child = spawnGroup(process.execPath, ['--import', TSX, '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  try {
    const [exitCode, signal] = await new Promise<[number | null, string | null]>((done) => child.once('exit', (c, s) => done([c, s])))
    return { code: exitCode, signal, out }
  } finally {
    await stopGroup(child, 'SIGKILL')
  }
}

describe('shutdown', () => {
  it('closes, then exits 0', async () => {
    expect(await shutdownIn('resolves', false)).toEqual({ code: 0, signal: null, out: 'closed\n' })
  })

  it('does not wait past its limit for a close that hangs', async () => {
    expect(await shutdownIn('hangs', false)).toEqual({ code: 0, signal: null, out: 'closing\n' })
  })

  it('ends the process by SIGKILL while a keychain call is held', async () => {
    expect(await shutdownIn('resolves', true)).toEqual({ code: null, signal: 'SIGKILL', out: 'closed\n' })
  })
})
