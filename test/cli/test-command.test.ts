import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SaxesParser } from 'saxes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { RunningService } from '../../src/service'
import { cli, cliInProcess, WORLD } from './spawn-cli'
import { ManualClock } from '../fixtures/manual-clock'
import { call, json, KEYCHAIN_SERVICE, keychainMissing, openCore, search, startServer, storedToken, type TestServer } from '../main/support'
import { startWorldService } from '../fixtures/world-service'

/**
 * `query-explorer test`, spawned as CI runs it: the example workspace on the
 * embedded demo (started inside the command), the production configuration
 * failing exactly its two cases, a secret only from the environment, JUnit a
 * strict XML parser reads, and snapshots recorded back into the file.
 */

const dir = mkdtempSync(join(tmpdir(), 'qe-cli-test-'))


function junit(path: string): { suite: Record<string, string>; failed: string[] } {
  const parser = new SaxesParser()
  let suite: Record<string, string> = {}
  const failed: string[] = []
  let current = ''
  parser.on('error', (error) => {
    throw error
  })
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>
    if (tag.name === 'testsuite') suite = attributes
    if (tag.name === 'testcase') current = attributes.name ?? ''
    if (tag.name === 'failure' || tag.name === 'error') failed.push(current)
  })
  parser.write(readFileSync(path, 'utf8')).close()
  return { suite, failed }
}

const missingKeychain = await keychainMissing()

const PRODUCTION_FAILURES = ['Text ranking puts San Potito Sannitico first', 'Top 5 for "san" as recorded']

describe('query-explorer test', () => {
  let service: RunningService
  const secret = `cli-${Date.now()}-secret`

  beforeAll(async () => {
    service = await startWorldService('ci-runner', secret)
  })
  afterAll(async () => {
    await service?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** The app, its data in `dataDir`, saves "Mine" for the test's service with its secret in the keychain; `then` runs before it closes. */
  async function appSavesMine(dataDir: string, then: (core: AppCore, id: string) => Promise<void> = async () => undefined): Promise<void> {
    const core = await openCore(dataDir, { echoLog: false })
    try {
      const saved = await call<{ id: string }>(core, 'connections:save', {
        name: 'Mine',
        authUrl: service.authUrl,
        queryUrl: service.queryUrl,
        workspace: 'world',
        api: 'places',
        clientId: 'ci-runner',
      })
      await call(core, 'secrets:set', { connectionId: saved.id, secret })
      await then(core, saved.id)
    } finally {
      await core.close()
    }
  }

  it('passes every case of examples/world.qxw.json on the embedded demo, and writes JUnit', async () => {
    const out = join(dir, 'default.xml')
    const run = await cli(['test', WORLD, '--junit', out])
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^9 passed, 0 failed in [\d.]+ s on Demo \(the embedded demo service\)$/m)
    expect(junit(out)).toEqual({ suite: expect.objectContaining({ tests: '9', failures: '0', errors: '0' }), failed: [] })
  })

  it('fails exactly the two production cases with --config production (exit 1), with a rank diff', async () => {
    const out = join(dir, 'production.xml')
    const run = await cli(['test', WORLD, '--config', 'production', '--junit', out])
    expect(run.status, run.stdout + run.stderr).toBe(1)
    const report = junit(out)
    expect(report.suite).toMatchObject({ tests: '9', failures: '2' })
    expect(report.failed.sort()).toEqual([...PRODUCTION_FAILURES].sort())
    // The item by its name, the rank it was found at, and a rank diff against the snapshot (which is no "B").
    expect(run.stdout).toContain('\n    San Potito Sannitico (3167796) expected at rank 1 or better, found at rank 9\n')
    expect(run.stdout).toMatch(/^ +snapshot {2}now {2}move {2}item$/m)
    expect(run.stdout).toMatch(/^ +– +1 {2}new {3}Sanaa \(71137\)$/m)
    expect(run.stdout).toMatch(/^ +1 +– {2}gone {2}San Potito Sannitico \(3167796\)$/m)
    expect(run.stdout).not.toMatch(/ (from|in) B\b/)
  })

  it('says which variable holds a missing secret (exit 2), never asking for it on the command line', async () => {
    const file = join(dir, 'staging.qxw.json')
    const world = JSON.parse(readFileSync(WORLD, 'utf8'))
    world.connections = [{ ...world.connections[0], id: 'staging', name: 'Staging EU', clientId: 'ci-runner', authUrl: 'http://127.0.0.1:9/auth', queryUrl: 'http://127.0.0.1:9/query' }]
    world.queries = world.queries.map((query: { connection: string }) => ({ ...query, connection: 'staging' }))
    world.tests = world.tests.map((testCase: { connection?: string }) => (testCase.connection ? { ...testCase, connection: 'staging' } : testCase))
    writeFileSync(file, JSON.stringify(world))
    const run = await cli(['test', file])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('set QUERY_EXPLORER_CLIENT_SECRET or QUERY_EXPLORER_SECRET_STAGING_EU')

    // With the secret in the environment and the URLs pointed at a host of its own, the same file runs there.
    const pointed = await cli(['test', file, '--auth-url', service.authUrl, '--query-url', service.queryUrl, '--json'], { QUERY_EXPLORER_SECRET_STAGING_EU: secret })
    expect(pointed.status, pointed.stdout + pointed.stderr).toBe(0)
    const json = JSON.parse(pointed.stdout) as { summary: { passed: number }; target: string }
    expect(json.summary.passed).toBe(9)
    expect(json.target).toBe('Staging EU')
    expect(pointed.stdout + pointed.stderr).not.toContain(secret)

    const wrong = await cli(['test', file, '--auth-url', service.authUrl, '--query-url', service.queryUrl], { QUERY_EXPLORER_CLIENT_SECRET: 'not-it' })
    expect(wrong.status).toBe(2)
    expect(wrong.stderr).toMatch(/Staging EU: .*401|Staging EU: .*client secret/i)
  })

  it.skipIf(missingKeychain)('takes the secret the app saved in the OS keychain for the same auth URL, workspace and client ID', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qe-cli-keychain-'))
    await appSavesMine(dataDir)
    const file = join(dir, 'keychain.qxw.json')
    const world = JSON.parse(readFileSync(WORLD, 'utf8'))
    world.connections = [{ ...world.connections[0], name: 'Staging', clientId: 'ci-runner', authUrl: service.authUrl, queryUrl: service.queryUrl }]
    writeFileSync(file, JSON.stringify(world))
    const env = { QUERY_EXPLORER_DATA_DIR: dataDir, QUERY_EXPLORER_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE }
    const run = await cli(['test', file, '--grep', 'Paris'], env)
    expect(run.status, run.stdout + run.stderr).toBe(0)
    // Pointed at another auth host, the saved secret stays home.
    const elsewhere = await cli(['test', file, '--grep', 'Paris', '--auth-url', 'http://127.0.0.1:9/auth'], env)
    expect(elsewhere.status).toBe(2)
    expect(elsewhere.stderr).toContain('No client secret for the connection "Staging"')
    rmSync(dataDir, { recursive: true, force: true })
  })

  describe.skipIf(missingKeychain)("a shared file's hosts and the app's saved secret", () => {
    // The app is signed in to the service as "Mine", with a live token; a teammate's file names the same
    // auth URL, workspace and client ID, but its own query host.
    let dataDir: string
    let hostile: TestServer
    let file: string
    let appToken: string
    let env: NodeJS.ProcessEnv

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'qe-cli-shared-'))
      hostile = await startServer((_req, res) => json(res, 401, { message: 'Invalid or expired token' }))
      await appSavesMine(dataDir, async (core, id) => {
        await call(core, 'query:run', { connectionId: id, requestId: 'live', request: search('paris') })
        appToken = (await storedToken(id))!
        expect(appToken).toBeTruthy()
      })
      file = join(dir, 'shared.qxw.json')
      const world = JSON.parse(readFileSync(WORLD, 'utf8'))
      world.connections = [{ ...world.connections[0], name: 'Shared', clientId: 'ci-runner', authUrl: service.authUrl, queryUrl: `${hostile.origin}/query` }]
      writeFileSync(file, JSON.stringify(world))
      env = { QUERY_EXPLORER_DATA_DIR: dataDir, QUERY_EXPLORER_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE }
    })
    afterAll(async () => {
      await hostile?.close()
      rmSync(dataDir, { recursive: true, force: true })
    })

    const bearers = () => hostile.seen.map((seen) => seen.headers.authorization).filter((value) => value !== undefined)

    it("does not lend the app's secret to a file whose query host is not the saved connection's, and says why", async () => {
      const run = await cliInProcess(['test', file, '--grep', 'Paris'], { env })
      expect(run.status, run.stdout + run.stderr).toBe(2)
      expect(run.stderr).toContain(`The secret saved in the app for "Mine" was not used: that connection sends its tokens to ${new URL(service.queryUrl).origin}, and "Shared" would send them to ${hostile.origin}.`)
      expect(run.stderr).toContain('set QUERY_EXPLORER_CLIENT_SECRET or QUERY_EXPLORER_SECRET_SHARED')
      expect(hostile.seen).toEqual([])
    })

    it('with a secret from the environment, gets a token of its own: never the one the app is using', async () => {
      const run = await cliInProcess(['test', file, '--grep', 'Paris'], { env: { ...env, QUERY_EXPLORER_CLIENT_SECRET: secret } })
      expect(run.status, run.stdout + run.stderr).toBe(1)
      expect(bearers().length).toBeGreaterThan(0)
      expect(bearers()).not.toContain(`Bearer ${appToken}`)
    })

    it('--query-url-must-match and --auth-url-must-match refuse other hosts before anything is sent', async () => {
      const before = hostile.seen.length
      const pinned = await cliInProcess(['test', file, '--query-url-must-match', new URL(service.queryUrl).origin], { env: { ...env, QUERY_EXPLORER_CLIENT_SECRET: secret } })
      expect(pinned.status).toBe(2)
      expect(pinned.stderr).toContain(`--query-url-must-match: the connection "Shared" points at ${hostile.origin}, not ${new URL(service.queryUrl).origin}; nothing was sent.`)
      const auth = await cliInProcess(['test', file, '--auth-url-must-match', 'https://auth.example.com/'], { env: { ...env, QUERY_EXPLORER_CLIENT_SECRET: secret } })
      expect(auth.status).toBe(2)
      expect(auth.stderr).toContain('--auth-url-must-match: the connection "Shared" points at http://127.0.0.1')
      const bad = await cliInProcess(['test', file, '--auth-url-must-match', 'auth.example.com'], { env })
      expect(bad.status).toBe(2)
      expect(bad.stderr).toContain('--auth-url-must-match: "auth.example.com" is not an http(s) origin')
      expect(hostile.seen.length).toBe(before)
    })
  })

  describe('a 429 on the token request', () => {
    // The quota window is an hour, as a real one is: the test's clock, shared by
    // the service and the command, is what moves, so no real timer is raced.
    const clock = new ManualClock(Date.UTC(2026, 10, 25, 9), { autoAdvance: true })
    let limited: RunningService
    let file: string

    beforeAll(async () => {
      limited = await startWorldService('ci-runner', secret, { quota: 1, clock })
      file = join(dir, 'limited.qxw.json')
      const world = JSON.parse(readFileSync(WORLD, 'utf8'))
      world.connections = [{ ...world.connections[0], name: 'Limited', clientId: 'ci-runner', authUrl: limited.authUrl, queryUrl: limited.queryUrl }]
      writeFileSync(file, JSON.stringify(world))
    })
    afterAll(async () => {
      await limited?.close()
    })

    /** Someone else uses the account's one token request of this hour. */
    async function takeTheQuota(): Promise<void> {
      const taken = await fetch(`${limited.authUrl}/api/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ WorkspaceName: 'world', ClientId: 'ci-runner', ClientSecret: secret, ForceReauth: true }),
      })
      expect(taken.status).toBe(200)
    }

    it('is waited out for its Retry-After, said, and then the cases run', async () => {
      await takeTheQuota()
      clock.sleeps.length = 0
      const run = await cliInProcess(['test', file, '--grep', 'Paris'], { env: { QUERY_EXPLORER_CLIENT_SECRET: secret }, clock })
      expect(run.status, run.stdout + run.stderr).toBe(0)
      expect(run.stdout).toContain('answered 429 (token request quota exceeded): waiting 3600 s, as its Retry-After asks')
      expect(run.stdout).toMatch(/^1 passed, 0 failed/m)
      expect(clock.sleeps).toEqual([3_600_000])
    })

    it('is not waited out past --max-wait: exit 2, saying when to retry', async () => {
      clock.advance(3_600_000)
      await takeTheQuota()
      clock.sleeps.length = 0
      const run = await cliInProcess(['test', file, '--max-wait', '60'], { env: { QUERY_EXPLORER_CLIENT_SECRET: secret }, clock })
      expect(run.status).toBe(2)
      expect(run.stderr).toMatch(/^Limited: The token request quota is used up \(429\)\. You may retry in 3600 s .*longer than --max-wait 60 s allows\.$/m)
      expect(clock.sleeps).toEqual([])
    })

    it('gives the spawned command exit 2 when the wait is longer than --max-wait', async () => {
      clock.advance(3_600_000)
      await takeTheQuota()
      const run = await cli(['test', file, '--max-wait', '0'], { QUERY_EXPLORER_CLIENT_SECRET: secret })
      expect(run.status, run.stdout + run.stderr).toBe(2)
      expect(run.stderr).toContain('longer than --max-wait 0 s allows')
    })
  })

  it('refuses bad input with exit 2: an unreadable file, an unknown connection, a bad concurrency', async () => {
    expect((await cli(['test', join(dir, 'missing.qxw.json')])).stderr).toContain('"missing.qxw.json" was not found.')
    const unknown = await cli(['test', WORLD, '--connection', 'Nope'])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('--connection: "Nope" is not a connection of world.qxw.json')
    expect((await cli(['test', WORLD, '--concurrency', '0'])).status).toBe(2)
    expect((await cli(['test', WORLD, '--max-wait', 'soon'])).stderr).toContain('--max-wait: "soon" is not a whole number of seconds from 0 to 86400.')
  })

  it('records snapshots with --update-snapshots, after which the production run passes that case', async () => {
    const file = join(dir, 'snapshots.qxw.json')
    copyFileSync(WORLD, file)
    const grep = ['--grep', 'top 5', '--config', 'production']
    expect((await cli(['test', file, ...grep])).status).toBe(1)
    const update = await cli(['test', file, ...grep, '--update-snapshots'])
    expect(update.stdout).toContain('Recorded 1 snapshot in snapshots.qxw.json.')
    const snapshot = JSON.parse(readFileSync(file, 'utf8')).tests.find((testCase: { name: string }) => testCase.name === PRODUCTION_FAILURES[1])
    expect(snapshot.expect.snapshot.ids[0]).toBe('71137')
    // Each recorded id keeps its name beside it, for a later failure to name an item no longer returned.
    expect(snapshot.expect.snapshot.names).toEqual(['Sanaa', 'Sāngli', 'Sanya', 'San Giorgio del Sannio', 'Sandakan'])
    expect(snapshot.expect.snapshot.minRbo).toBe(0.9)
    expect((await cli(['test', file, ...grep])).status).toBe(0)
  })
})
