import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { SECRET_VARIABLE, curlText, type CopyAsConnection } from '../../src/shared/copy-as/copy-as'
import { NOT_THE_DEMO } from '../../src/main/ipc/handlers/copy-as-handlers'
import { call, failure, filesUnder, keychainMissing, openCore, search } from './support'

/**
 * "Copy as → curl" is only worth copying if it runs: the printed text is run
 * in bash, as a user would paste it, against the embedded service, and must
 * give the rows and total the app itself gets for the same request.
 */

const run = promisify(execFile)
const curlMissing = await run('which', ['curl']).then(
  () => null,
  () => 'curl is not installed',
)
const missing = curlMissing ?? (await keychainMissing())

describe.skipIf(missing)('copy as curl, run in bash', () => {
  let service: RunningService
  let dataDir: string
  let core: AppCore

  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-copy-as-'))
    core = await openCore(dataDir)
  })
  afterAll(async () => {
    await core?.close()
    await service?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  /** The text run as a script: its exit status and what it printed where. */
  async function script(text: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    return run('bash', ['-c', text], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )
  }

  async function bash(text: string, env: Record<string, string>): Promise<unknown> {
    const { stdout } = await run('bash', ['-c', text], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 })
    return JSON.parse(stdout)
  }

  for (const tokenRequest of ['json', 'oauth'] as const) {
    it(`gives the app's own items and total (${tokenRequest} token request)`, async () => {
      const connection: CopyAsConnection = {
        authUrl: service.authUrl,
        queryUrl: service.queryUrl,
        workspace: service.workspace,
        api: 'places',
        clientId: service.account.clientId,
        tokenRequest,
      }
      const view = await call<ConnectionView>(core, 'connections:save', { name: `Copy as ${tokenRequest}`, ...connection })
      await call(core, 'secrets:set', { connectionId: view.id, secret: service.account.clientSecret })
      const results: QueryRequest = search('san', { count: 7, offset: 2 })
      const statistics: QueryRequest = { ...results, responseType: 'statistics', options: {} }
      const env = { [SECRET_VARIABLE]: service.account.clientSecret }

      const own = await call<{ status: number; body: { items: unknown[] } }>(core, 'query:run', {
        connectionId: view.id,
        requestId: `items-${tokenRequest}`,
        request: results,
      })
      const ownStats = await call<{ status: number; body: { total: number } }>(core, 'query:run', {
        connectionId: view.id,
        requestId: `stats-${tokenRequest}`,
        request: statistics,
      })
      expect(own.status).toBe(200)
      expect(own.body.items.length).toBe(7)
      expect(ownStats.body.total).toBeGreaterThan(9)

      const printed = curlText(connection, results)
      expect(printed).not.toContain(service.account.clientSecret)
      expect(await bash(printed, env)).toMatchObject({ items: own.body.items })
      expect(await bash(curlText(connection, statistics), env)).toMatchObject({ total: ownStats.body.total })
    })
  }

  it('without the secret in the environment, the query is refused rather than run some other way', async () => {
    const connection: CopyAsConnection = {
      authUrl: service.authUrl,
      queryUrl: service.queryUrl,
      workspace: service.workspace,
      api: 'places',
      clientId: service.account.clientId,
    }
    const refused = await run('bash', ['-c', curlText(connection, search('san'))], { env: { PATH: process.env.PATH ?? '' } }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    )
    expect(refused?.code).not.toBe(0)
    expect(refused?.stdout).not.toContain('"items"')
    expect(refused?.stderr).toContain(`Set ${SECRET_VARIABLE} to the client secret first`)
  })

  for (const tokenRequest of ['json', 'oauth'] as const) {
    it(`with a wrong secret, stops before the query: a sentence naming the token route, and a non-zero exit (${tokenRequest})`, async () => {
      const connection: CopyAsConnection = {
        authUrl: service.authUrl,
        queryUrl: service.queryUrl,
        workspace: service.workspace,
        api: 'places',
        clientId: service.account.clientId,
        tokenRequest,
      }
      const route = tokenRequest === 'oauth' ? '/oauth/token' : '/api/auth'
      const refused = await script(curlText(connection, search('san')), { [SECRET_VARIABLE]: 'not-the-secret' })
      expect(refused.code).not.toBe(0)
      expect(refused.stdout).toBe('')
      expect(refused.stderr).toContain(`No token came back from ${service.authUrl}${route}: check the client ID and the secret in ${SECRET_VARIABLE}.`)
      expect(refused.stderr).not.toContain('Invalid or expired token')
    })
  }

  it("the Demo's curl, with its secret filled in by the main process, runs with nothing set; any other connection is refused", async () => {
    const demoData = mkdtempSync(join(tmpdir(), 'qe-copy-as-demo-'))
    const withDemo = await openCore(demoData, { demo: service })
    try {
      const request = search('san', { count: 5 })
      const { text } = await call<{ text: string }>(withDemo, 'copy-as:demo-with-secret', { connectionId: 'demo', request })
      expect(text).toContain(service.account.clientSecret)
      expect(text).toContain('it changes every time Query Explorer starts')
      const own = await call<{ body: { items: unknown[] } }>(withDemo, 'query:run', { connectionId: 'demo', requestId: 'demo-own', request })
      expect(own.body.items).toHaveLength(5)
      expect(await bash(text, {})).toMatchObject({ items: own.body.items })

      // A saved connection's secret never comes back, even a copy of the Demo holding the very same secret.
      const copy = await call<ConnectionView>(withDemo, 'connections:duplicate', { connectionId: 'demo' })
      expect(copy.hasSecret).toBe(true)
      const refused = await failure(withDemo, 'copy-as:demo-with-secret', { connectionId: copy.id, request })
      expect(refused).toMatchObject({ code: 'validation', message: NOT_THE_DEMO })
      expect(JSON.stringify(refused)).not.toContain(service.account.clientSecret)
      // A launch without the Demo has none to give.
      expect(await failure(core, 'copy-as:demo-with-secret', { connectionId: 'demo', request })).toMatchObject({ code: 'validation', message: NOT_THE_DEMO })
      // The reply is the one place it went: no file of the app's, the log included, holds it.
      const files = filesUnder(demoData)
      expect(files.some((file) => file.endsWith('main.log'))).toBe(true)
      for (const file of files) expect(readFileSync(file, 'latin1').includes(service.account.clientSecret), `${file} holds the Demo's secret`).toBe(false)
    } finally {
      await withDemo.close()
      rmSync(demoData, { recursive: true, force: true })
    }
  })
})
