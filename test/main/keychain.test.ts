import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keychainMissing } from './support'

/** A keychain that locks or stops answering while the app runs: the app must go on, and still stop when told. */

const missing = await keychainMissing()

interface StuckRun {
  result: Record<string, any>
  /** From the result line (printed just before shutdown begins) to the process's end. */
  exitMs: number
  /** The fixture's exit status as bash saw it (137: killed by its own SIGKILL). */
  exitStatus: number | null
}

/** Bounds that only a hang breaks: generous, so a machine whose cores are busy keeps them. */
const HUNG_MS = 20_000

function runStuckKeychain(): Promise<StuckRun> {
  const keyring = mkdtempSync(join(tmpdir(), 'qe-keyring-'))
  const script = [
    'echo -n pw | gnome-keyring-daemon --unlock --replace --daemonize --components=secrets >/dev/null 2>&1',
    // One node process (tsx's command line would run the fixture in a child of its own).
    'node --import tsx test/main/fixtures/stuck-keychain.ts; echo "exited $?"',
    // The stopped daemon is woken, so the session can end.
    'pkill -CONT -u "$(id -u)" gnome-keyring-d; true',
  ].join('; ')
  return new Promise((resolve, reject) => {
    const child = spawn('dbus-run-session', ['--', 'bash', '-c', script], {
      env: { ...process.env, XDG_DATA_HOME: keyring, QE_KEYRING_DIR: keyring },
      stdio: ['ignore', 'pipe', 'inherit'],
      // Its own process group: a fixture wedged by the keychain is killed with everything it started.
      detached: true,
    })
    let output = ''
    let printedAt = 0
    let exitedAt = 0
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 90_000)
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (!printedAt && output.includes('\n')) printedAt = performance.now()
      if (!exitedAt && output.includes('exited ')) exitedAt = performance.now()
    })
    child.on('exit', () => {
      clearTimeout(timer)
      rmSync(keyring, { recursive: true, force: true })
      try {
        const status = /exited (\d+)/.exec(output)?.[1]
        resolve({ result: JSON.parse(output.split('\n')[0]!), exitMs: Math.round((exitedAt || Infinity) - printedAt), exitStatus: status === undefined ? null : Number(status) })
      } catch {
        reject(new Error(`the fixture printed no result:\n${output}`))
      }
    })
  })
}

describe.skipIf(missing || !process.env.DBUS_SESSION_BUS_ADDRESS)('a keychain that locks, then stops answering', () => {
  it('serves every call, keeps libuv threads free, falls back to memory and says so, and still stops', async () => {
    const { result, exitMs, exitStatus } = await runStuckKeychain()
    expect(result.crashed).toBeUndefined()
    expect(result.before).toEqual({ ok: true, data: { stored: 'os' } })

    // Locked: every one of eight concurrent calls answers, and file I/O and DNS still run.
    expect(result.locked.replies).toHaveLength(8)
    for (const reply of result.locked.replies.filter((_: unknown, i: number) => i % 2 === 0)) {
      expect(reply).toMatchObject({ ok: false, error: { code: 'keychain' } })
      expect(reply.error.message).toMatch(/refused to store the secret \(.*locked/)
    }
    // Held threads would never answer: file I/O and DNS coming back at all is the point.
    expect(result.lockedThreadsMs).toBeLessThan(HUNG_MS)

    // Stopped: one call waits out the 5 s limit, then the keychain counts as not answering.
    expect(result.stopped.ms).toBeLessThan(5_000 + HUNG_MS)
    expect(result.stopped.replies[0]).toMatchObject({ ok: false, error: { code: 'keychain' } })
    expect(result.stopped.replies[0].error.message).toMatch(/did not answer within 5 s.*kept in memory/)
    expect(result.stoppedThreadsMs).toBeLessThan(HUNG_MS)
    expect(result.info.data.keychain.kind).toBe('memory')
    expect(result.info.data.keychain.detail).toMatch(/stopped answering.*memory for the rest of this run/)
    expect(result.storedAfter).toEqual({ ok: true, data: { stored: 'memory' } })
    expect(result.listed.data[0]).toMatchObject({ hasSecret: true, secretStore: 'memory' })
    expect(result.held).toBe(true)

    // The stuck call holds a native thread; shutdown ends the process itself (SIGKILL, 137)
    // instead of waiting for that thread, which would be for good.
    expect(exitStatus).toBe(137)
    expect(exitMs).toBeLessThan(HUNG_MS)
  })
})
