import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RECENT_COPIES_DIR } from '../../src/main/workspaces/recent-workspaces'
import { SESSION_FILE } from '../../src/main/workspaces/session-file'
import type { ConnectionView, WorkspaceView } from '../../src/shared/ipc/contract'
import { call, failure, filesUnder, keychainMissing, storedSecret } from './support'
import { STAGING, textOf, workspaceSessions, type SaveReply } from './fixtures/workspace-sessions'

/** Connections the file describes and the app lacks (connection-bindings.ts), over the real keychain. */

const missing = await keychainMissing()

describe('connection bindings', () => {
  const { tempDir, browserCore, close, importText, saveQuery } = workspaceSessions()

  describe.skipIf(missing)('connections the file describes and the app lacks', () => {
    it('creates one from the file with the typed secret in the keychain only, under a unique name', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      await call(core, 'connections:save', { name: 'Staging', authUrl: 'https://elsewhere.example/auth', queryUrl: 'https://elsewhere.example/query', workspace: 'w', api: 'a', clientId: 'c' })
      const view = await importText(core, 'team.qxw.json', textOf([{ name: 'Staged', connection: 'staging' }], [STAGING]))
      expect(view.bindings).toEqual([{ fileConnectionId: 'staging', connection: STAGING, connectionId: null, how: null }])
      expect((await failure(core, 'workspace:create-connection', { fileConnectionId: 'nope', secret: 'x' })).message).toBe('The workspace has no connection "nope".')

      const canary = `canary-${randomBytes(16).toString('hex')}`
      const created = await call<{ workspace: WorkspaceView; connection: ConnectionView }>(core, 'workspace:create-connection', { fileConnectionId: 'staging', secret: canary })
      expect(created.connection).toMatchObject({
        name: 'Staging (from team)',
        authUrl: STAGING.authUrl,
        queryUrl: STAGING.queryUrl,
        workspace: 'world',
        api: 'places',
        clientId: 'staging-client',
        hasSecret: true,
        builtIn: false,
      })
      expect(created.workspace.bindings[0]).toMatchObject({ connectionId: created.connection.id, how: 'created' })
      expect(created.workspace.dirty).toBe(false)
      expect(await storedSecret(created.connection.id)).toEqual({ origin: 'http://127.0.0.1:9', secret: canary })
      expect(JSON.stringify(created)).not.toContain(canary)

      await saveQuery(core, { name: 'On staging', connectionId: created.connection.id })
      const saved = await call<SaveReply>(core, 'workspace:save', {})
      expect(saved.download!.text).not.toContain(canary)
      expect(JSON.parse(saved.download!.text).queries.map((query: { connection: string }) => query.connection)).toEqual(['staging', 'staging'])
      await close(core)
      const files = filesUnder(dataDir)
      expect(files.some((file) => file.endsWith(SESSION_FILE))).toBe(true)
      for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toContain(canary)
      expect(existsSync(join(dataDir, RECENT_COPIES_DIR))).toBe(true)
      // The keychain entry goes with the connection.
      const again = await browserCore(dataDir)
      await call(again, 'connections:delete', { id: created.connection.id })
      expect(await storedSecret(created.connection.id)).toBeNull()
    })
  })
})
