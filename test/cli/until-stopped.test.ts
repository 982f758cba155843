import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { spawnGroup, stopAllGroups } from '../fixtures/process-group'

/**
 * A command that serves until told to stop (`serve`, `copy-as` on the demo):
 * Ctrl-C (SIGINT) or SIGTERM closes it once and it exits 0, or 1 when
 * closing failed; a second Ctrl-C while it closes is not caught, so it ends
 * the process as a person pressing it twice expects. Real processes, real signals.
 */

const CHILD = join(__dirname, '../fixtures/until-stopped-child.ts')

afterEach(() => stopAllGroups())

interface Served {
  child: ChildProcess
  output: () => string
  /** Resolves once the child has printed `text`. */
  printed: (text: string) => Promise<void>
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

function serve(mode: 'ok' | 'fail' | 'hang'): Served {
  const child = spawnGroup(process.execPath, ['--import', 'tsx', CHILD, mode], { cwd: join(__dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const waiting: { text: string; resolve: () => void }[] = []
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    for (const each of waiting.filter((w) => out.includes(w.text))) each.resolve()
  })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  return {
    child,
    output: () => out,
    printed: (text) => (out.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve }))),
    exit,
  }
}

describe('untilStopped', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('on %s closes once and exits 0', async (signal) => {
    const served = serve('ok')
    await served.printed('ready')
    served.child.kill(signal)
    expect(await served.exit).toEqual({ code: 0, signal: null })
    expect(served.output()).toBe('ready\nclosing 1\nclosed 1 time(s), status 0\n')
  })

  it('exits 1 when closing failed', async () => {
    const served = serve('fail')
    await served.printed('ready')
    served.child.kill('SIGTERM')
    expect(await served.exit).toEqual({ code: 1, signal: null })
    expect(served.output()).toBe('ready\nclosing 1\nclosed 1 time(s), status 1\n')
  })

  it('leaves a second Ctrl-C while closing to end the process, and never closes twice', async () => {
    const served = serve('hang')
    await served.printed('ready')
    served.child.kill('SIGINT')
    await served.printed('closing 1')
    served.child.kill('SIGINT')
    expect(await served.exit).toEqual({ code: null, signal: 'SIGINT' })
    expect(served.output()).toBe('ready\nclosing 1\n')
  })
})
