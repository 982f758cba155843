import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppCore } from '../../src/main/app/app-core'

/** The app's start: its parts timed into the log (startup-marks.test.ts times them), and `npm start` not retrying a download that just failed. */

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'qe-start-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('the app core start', () => {
  it('writes one start-up line naming the keychain and the demo service, with the service\'s own loading time', async () => {
    const dataDir = tempDir()
    const core = await createAppCore({ dataDir, host: 'browser', version: 'test', keychainService: `qe-start-test-${process.pid}`, keychainTimeouts: { probeMs: 2_000 } })
    try {
      const lines = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { message: string }).message)
      const startUp = lines.filter((line) => line.startsWith('start-up '))
      expect(startUp).toHaveLength(1)
      expect(startUp[0]).toMatch(/^start-up \d+ ms: (keychain \d+ ms, demo service \d+ ms|demo service \d+ ms, keychain \d+ ms) \(the demo service's own start-up \d+ ms\)$/)
    } finally {
      await core.close()
    }
  })
})

describe('npm start and the Electron runtime', () => {
  const { tryInstallElectron } = createRequire(import.meta.url)('../../scripts/electron-runtime.cjs') as {
    tryInstallElectron: (log: (line: string) => void, options?: { force?: boolean; marker?: string }) => boolean
  }

  it('does not try the download again within a day of a failed one, and says how to force it', () => {
    const marker = join(tempDir(), 'electron-fetch-failed.json')
    const failedAt = Date.now() - 60 * 60 * 1000
    writeFileSync(marker, JSON.stringify({ failedAt }))
    const said: string[] = []
    expect(tryInstallElectron((line) => said.push(line), { marker })).toBe(false)
    expect(said).toEqual([
      `Not fetching the Electron runtime: the last try (${new Date(failedAt).toISOString()}) failed; it is tried again a day later, or now with \`npm start -- --fetch-electron\`.`,
    ])
  })
})
