import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppCore } from '../../src/main/app/app-core'
import { startService, type RunningService } from '../../src/service'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { call, openCore, startServer, type TestServer } from './support'

/**
 * What the test-case, evaluation and experiment tests run on: the real demo
 * service, a core of the app on it (its own data folder and keychain
 * service), and a connection "Silent" to a server that holds every request
 * until the test ends, so a run on it stays under way as long as a test needs.
 */
export interface DemoBench {
  service: RunningService
  dataDir: string
  core: AppCore
  silent: TestServer
  silentConnection: ConnectionView
  /** Stops the core, the silent server and the service, and removes the data folder. */
  close(): Promise<void>
}

export async function openDemoBench(name: string): Promise<DemoBench> {
  const service = await startService({ port: 0, log: () => undefined })
  const dataDir = mkdtempSync(join(tmpdir(), `qe-${name}-`))
  const core = await openCore(dataDir, { demo: service, keychainService: `query-explorer-${name}-${process.pid}` })
  const silent = await startServer(() => undefined)
  const silentConnection = await call<ConnectionView>(core, 'connections:save', {
    name: 'Silent',
    authUrl: '',
    queryUrl: `${silent.origin}/query`,
    workspace: 'world',
    api: 'places',
    clientId: '',
  })
  return {
    service,
    dataDir,
    core,
    silent,
    silentConnection,
    async close() {
      await core.close()
      await silent.close()
      await service.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
