import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { SECRET_VARIABLE, curlText, type CopyAsConnection } from '../../src/shared/copy-as/copy-as'
import { call, keychainMissing, openCore, search } from './support'

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
})
