import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { locateReferenceClients, referenceClientsRequired } from './reference-clients-location'

/**
 * A user's clone has no ../shared: `npm test` must pass there, the
 * conformance suite skipping with its reason; CI, which has the clients,
 * must fail when they are missing rather than skip.
 */

const ROOT = resolve(__dirname, '../..')
const run = promisify(execFile)
const empty = mkdtempSync(join(tmpdir(), 'qe-no-clients-'))
afterAll(() => rmSync(empty, { recursive: true, force: true }))

describe('where the official clients are', () => {
  it('finds a folder that holds what the suite runs, named by QE_REFERENCE_CLIENTS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qe-clients-'))
    try {
      mkdirSync(join(dir, 'query-api-ts'))
      mkdirSync(join(dir, 'query-api-python/spinque-query-api'), { recursive: true })
      writeFileSync(join(dir, 'build-query-api-ts.sh'), '')
      expect(locateReferenceClients({ QE_REFERENCE_CLIENTS: dir })).toEqual({ found: true, dir })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('names what is missing and how to run the suite when they are not there', () => {
    const location = locateReferenceClients({ QE_REFERENCE_CLIENTS: empty })
    expect(location.found).toBe(false)
    if (location.found) return
    expect(location.reason).toContain(`QE_REFERENCE_CLIENTS=${empty}`)
    expect(location.reason).toContain('build-query-api-ts.sh, query-api-ts, query-api-python/spinque-query-api missing')
    expect(location.reason).toContain('QE_REFERENCE_CLIENTS=DIR npm test')
  })

  it('is required only where QE_REQUIRE_REFERENCE_CLIENTS=1 says so (.ci/run sets it)', () => {
    expect(referenceClientsRequired({})).toBe(false)
    expect(referenceClientsRequired({ CI: 'true' })).toBe(false)
    expect(referenceClientsRequired({ QE_REQUIRE_REFERENCE_CLIENTS: '1' })).toBe(true)
  })
})

describe('the conformance suite without the clients', () => {
  const suite = (env: Record<string, string>) =>
    run(join(ROOT, 'node_modules/.bin/vitest'), ['run', 'test/conformance/reference-clients.test.ts'], {
      cwd: ROOT,
      // A mark of its own (test/fixtures/process-leaks.ts): the inner run's teardown would otherwise kill this runner's workers.
      env: { ...process.env, QE_TEST_RUN: randomBytes(8).toString('hex'), NO_COLOR: '1', FORCE_COLOR: '0', QE_REFERENCE_CLIENTS: empty, QE_REQUIRE_REFERENCE_CLIENTS: '', ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
    )

  it("passes on a user's clone, every test skipped, saying why and how to run them", async () => {
    const { code, output } = await suite({})
    expect(code, output).toBe(0)
    expect(output).toContain('Conformance tests skipped: the official clients are not at')
    // Every test skipped: none ran, none passed.
    expect(output).toMatch(/Tests\s+(\d+) skipped \(\1\)/)
  })

  it('fails where they are required, naming the folder', async () => {
    const { code, output } = await suite({ QE_REQUIRE_REFERENCE_CLIENTS: '1' })
    expect(code, output).toBe(1)
    expect(output).toContain('The conformance suite is required here (QE_REQUIRE_REFERENCE_CLIENTS=1)')
  })

  it('is required by CI: .ci/run sets the variable before the tests', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
    expect(ci.indexOf('export QE_REQUIRE_REFERENCE_CLIENTS=1')).toBeGreaterThan(-1)
    expect(ci.indexOf('export QE_REQUIRE_REFERENCE_CLIENTS=1')).toBeLessThan(ci.indexOf('npm test'))
  })
})
