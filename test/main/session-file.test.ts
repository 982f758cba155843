import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_FILE } from '../../src/main/workspaces/session-file'
import type { AppInfo, ConnectionView, Draft } from '../../src/shared/ipc/contract'
import { parseWorkspace } from '../../src/shared/workspace/workspace-file'
import { call, search } from './support'
import { OLD_DEMO, STAGING, textOf, workspaceSessions, type SaveReply } from './fixtures/workspace-sessions'

/** session.json (session-file.ts): the open workspace survives a restart, and a bad one is set aside. */

describe('workspace session file', () => {
  const { tempDir, browserCore, close, current, importText, saveQuery } = workspaceSessions()

  describe('the session survives a restart', () => {
    it('gives back the workspace, its dirty flag, bindings and the draft', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      const staging = await call<ConnectionView>(core, 'connections:save', {
        name: 'Mine',
        authUrl: 'http://127.0.0.1:9/auth',
        queryUrl: 'http://127.0.0.1:9/query',
        workspace: 'films',
        api: 'movies',
        clientId: 'mine',
      })
      await importText(core, 'team.qxw.json', textOf([{ name: 'Paris' }, { name: 'Staged', connection: 'staging' }], [OLD_DEMO, STAGING], { later: [1, 2] }))
      expect((await current(core)).workspace.bindings.map((binding) => [binding.fileConnectionId, binding.connectionId, binding.how])).toEqual([
        ['demo', 'demo', 'moved'],
        ['staging', null, null],
      ])
      await call(core, 'workspace:bind', { fileConnectionId: 'staging', connectionId: staging.id })
      await saveQuery(core, { name: 'Oslo', notes: 'unsaved' })
      const draft: Draft = { connectionId: 'demo', request: search('lima', { count: 25 }), savedQuery: 'Oslo' }
      expect(await call(core, 'workspace:draft', { draft })).toEqual({ kept: true })
      const before = await current(core)
      expect(before.workspace.dirty).toBe(true)
      expect(before.workspace.bindings.map((binding) => binding.how)).toEqual(['moved', 'chosen'])
      await close(core)

      const again = await browserCore(dataDir)
      expect(await current(again)).toEqual(before)
      expect(await current(again)).toEqual({ workspace: before.workspace, draft })
      const download = await call<SaveReply>(again, 'workspace:save', {})
      expect(JSON.parse(download.download!.text).later).toEqual([1, 2])
      await close(again)

      const third = await browserCore(dataDir)
      expect((await current(third)).workspace.dirty).toBe(false)
      // A new workspace starts clean, and the draft stays but no longer stems from a saved query.
      expect(await call(third, 'workspace:new', {})).toMatchObject({ dirty: false, queries: [], fileName: null })
      expect((await current(third)).draft).toEqual({ ...draft, savedQuery: null })
    })

    it('sets a corrupt session aside, starts empty and says so', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      await saveQuery(core, { name: 'Paris' })
      await close(core)
      writeFileSync(join(dataDir, SESSION_FILE), '{"version": 1, "document": "{}"')
      const again = await browserCore(dataDir)
      expect((await current(again)).workspace).toMatchObject({ name: 'Untitled workspace', queries: [], dirty: false })
      const info = await call<AppInfo>(again, 'app:info', {})
      expect(info.notices).toHaveLength(1)
      expect(info.notices[0]).toMatch(/could not be restored \(it is not valid JSON\); its session file was kept as .*session\.json\.bad\. Starting with an empty workspace\./)
      expect(readFileSync(join(dataDir, `${SESSION_FILE}.bad`), 'utf8')).toBe('{"version": 1, "document": "{}"')
      await close(again)

      // A session whose document holds a secret-looking field is not taken either.
      const sneaky = { version: 1, document: JSON.stringify({ format: 'query-explorer-workspace', version: 1, token: 'x' }), file: null, savedDigest: '0'.repeat(64), bindings: [], draft: null }
      writeFileSync(join(dataDir, SESSION_FILE), JSON.stringify(sneaky))
      const third = await browserCore(dataDir)
      expect((await call<AppInfo>(third, 'app:info', {})).notices[0]).toMatch(/looks like a secret/)
      expect((await current(third)).workspace.queries).toEqual([])
    })

    it('lands 20 concurrent saves of queries, and session.json reads afterwards', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      const names = Array.from({ length: 20 }, (_, n) => `Query ${n}`)
      await Promise.all([
        ...names.map((name) => saveQuery(core, { name, request: search(name) })),
        ...names.map((name) => call(core, 'workspace:draft', { draft: { connectionId: 'demo', request: search(name), savedQuery: null } })),
      ])
      const view = (await current(core)).workspace
      expect(view.queries.map((query) => query.name).sort()).toEqual([...names].sort())
      const session = JSON.parse(readFileSync(join(dataDir, SESSION_FILE), 'utf8')) as { document: string }
      const read = parseWorkspace(session.document, 'session')
      expect(read.ok && read.workspace.queries.map((query) => query.name)).toEqual(view.queries.map((query) => query.name))
      expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([])
      await close(core)
      expect((await current(await browserCore(dataDir))).workspace.queries).toEqual(view.queries)
    })
  })
})
