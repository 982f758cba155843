import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ConnectionView, RecentWorkspace, WorkspaceView } from '../../src/shared/ipc/contract'
import { parseWorkspace, serializeWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { call, failure, search, uploadText } from './support'
import { OLD_DEMO, scriptedDialogs, sessionBytes, textOf, workspaceSessions, type SaveReply } from './fixtures/workspace-sessions'

/**
 * Opening and saving the open workspace (workspace-file-io.ts), over the real
 * dispatcher: files the user picks in the native dialogs (Electron), and
 * files the page picks and downloads it takes (browser host).
 */

describe('workspace files: open and save', () => {
  const { demo, tempDir, browserCore, electronCore, close, current, importText, saveQuery } = workspaceSessions()

  describe('Electron: files the user picks in the native dialogs', () => {
    it('saves a new workspace where the user chooses, reopens it, and a save without edits writes identical bytes', async () => {
      const { dialogs, opens, saves, asked } = scriptedDialogs()
      const core = await electronCore(dialogs)
      const folder = tempDir('files')

      const fresh = await current(core)
      expect(fresh.workspace).toMatchObject({ name: 'Untitled workspace', fileName: null, folder: null, saveTarget: 'choose', dirty: false, queries: [], bindings: [] })

      const saved = await saveQuery(core, { name: 'Paris', notes: 'the capital' })
      expect(saved.dirty).toBe(true)
      expect(saved.queries).toEqual([{ name: 'Paris', connection: 'demo', notes: 'the capital', request: search('paris') }])
      expect(saved.bindings).toEqual([
        {
          fileConnectionId: 'demo',
          connectionId: 'demo',
          how: 'same',
          connection: { id: 'demo', name: 'Demo', authUrl: demo().authUrl, queryUrl: demo().queryUrl, workspace: 'world', api: 'places', config: 'default', clientId: 'demo' },
        },
      ])

      // The user types "team" in the save dialog: the file gets the workspace extension.
      saves.push(join(folder, 'team'))
      const first = await call<SaveReply>(core, 'workspace:save', {})
      const path = join(folder, 'team.qxw.json')
      expect(asked.at(-1)).toEqual({
        kind: 'save',
        options: {
          title: 'Save workspace',
          defaultName: 'Untitled workspace.qxw.json',
          filters: [
            { name: 'Query Explorer workspace', extensions: ['qxw.json'] },
            { name: 'JSON', extensions: ['json'] },
          ],
        },
      })
      expect(first).toMatchObject({ download: null, workspace: { name: 'team', fileName: 'team.qxw.json', folder, saveTarget: 'file', dirty: false } })
      const bytes = readFileSync(path)
      const read = parseWorkspace(bytes.toString('utf8'), 'team.qxw.json')
      expect(read.ok && read.workspace.queries.map((query) => query.name)).toEqual(['Paris'])
      expect(serializeWorkspace((read as { workspace: Workspace }).workspace)).toBe(bytes.toString('utf8'))

      expect(await call<WorkspaceView>(core, 'workspace:new', {})).toMatchObject({ name: 'Untitled workspace', queries: [], dirty: false })
      opens.push(path)
      const opened = await call<WorkspaceView>(core, 'workspace:open', {})
      expect(asked.at(-1)?.kind).toBe('open')
      expect(opened).toEqual({ ...first.workspace, dirty: false })

      // The path is known: a save writes it without asking.
      const dialogsAsked = asked.length
      const again = await call<SaveReply>(core, 'workspace:save', {})
      expect(asked).toHaveLength(dialogsAsked)
      expect(again.workspace?.dirty).toBe(false)
      expect(readFileSync(path).equals(bytes)).toBe(true)
      expect(readdirSync(folder)).toEqual(['team.qxw.json'])

      // Cancelled dialogs: nothing opens, nothing is written.
      expect(await call(core, 'workspace:open', {})).toBeNull()
      expect(await call(core, 'workspace:save', { saveAs: true })).toEqual({ workspace: null, download: null })
      expect((await current(core)).workspace).toEqual(opened)
    })

    it('keeps its test cases (renamed with their query) and a top-level key it does not know through open, edit and save', async () => {
      const { dialogs, opens } = scriptedDialogs()
      const core = await electronCore(dialogs)
      const path = join(tempDir('files'), 'later.qxw.json')
      const tests = [{ name: 'Rome first', query: 'Rome', expect: { firstItem: [{ field: 'id', equals: 'rome-it' }] } }]
      writeFileSync(path, textOf([{ name: 'Paris' }, { name: 'Rome' }], [OLD_DEMO], { tests, zeta: 'last' }))
      opens.push(path)
      await call(core, 'workspace:open', {})
      await call(core, 'workspace:rename-query', { name: 'Rome', newName: 'Roma' })
      await saveQuery(core, { name: 'Oslo' })
      expect((await call<SaveReply>(core, 'workspace:save', {})).workspace?.dirty).toBe(false)
      const written = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
      // The case follows its saved query's new name.
      expect(written.tests).toEqual([{ ...tests[0], query: 'Roma' }])
      expect(written.zeta).toBe('last')
      expect((written.queries as { name: string }[]).map((query) => query.name)).toEqual(['Paris', 'Roma', 'Oslo'])
      expect(Object.keys(written)).toEqual(['format', 'version', 'connections', 'queries', 'tests', 'zeta'])
    })

    it('refuses a bad file by its name and leaves the open workspace and session.json as they were', async () => {
      const { dialogs, opens } = scriptedDialogs()
      const dataDir = tempDir('data')
      const core = await electronCore(dialogs, dataDir)
      await saveQuery(core, { name: 'Unsaved work' })
      const before = await current(core)
      const session = sessionBytes(dataDir)
      const folder = tempDir('files')
      const bad: [string, string, RegExp][] = [
        ['notes.qxw.json', '{"format": "query-explorer-workspace", "version": 1,', /^"notes\.qxw\.json" is not valid JSON/],
        ['future.qxw.json', JSON.stringify({ format: 'query-explorer-workspace', version: 2, connections: [], queries: [] }), /^"future\.qxw\.json" was written by a newer Query Explorer/],
        [
          'leaky.qxw.json',
          JSON.stringify({ format: 'query-explorer-workspace', version: 1, connections: [{ ...OLD_DEMO, clientSecret: 'canary' }], queries: [] }),
          /^"leaky\.qxw\.json" holds a field that looks like a secret or a token \(connections\[0\]\.clientSecret\)/,
        ],
      ]
      for (const [name, text, message] of bad) {
        writeFileSync(join(folder, name), text)
        opens.push(join(folder, name))
        const refused = await failure(core, 'workspace:open', {})
        expect(refused.code).toBe('validation')
        expect(refused.message).toMatch(message)
        expect(await current(core)).toEqual(before)
        expect(sessionBytes(dataDir).equals(session)).toBe(true)
      }
      expect(await call<RecentWorkspace[]>(core, 'workspace:recent', {})).toEqual([])
    })

    it('says which file could not be written and keeps the document dirty', async () => {
      const { dialogs, saves } = scriptedDialogs()
      const core = await electronCore(dialogs)
      const folder = tempDir('files')
      await saveQuery(core, { name: 'Paris' })
      // The user picks a name a folder already has.
      mkdirSync(join(folder, 'taken.qxw.json'))
      saves.push(join(folder, 'taken.qxw.json'))
      const refused = await failure(core, 'workspace:save', {})
      expect(refused.message).toMatch(/^"taken\.qxw\.json" could not be saved: a folder has that name\./)
      // A folder that does not exist (a file stands where it should be).
      writeFileSync(join(folder, 'plain'), 'x')
      saves.push(join(folder, 'plain', 'team.qxw.json'))
      expect((await failure(core, 'workspace:save', {})).message).toMatch(/^"team\.qxw\.json" could not be saved: the folder .*plain does not exist/)
      // Adding the extension would name another file the dialog never asked about replacing.
      writeFileSync(join(folder, 'other.qxw.json'), 'someone else’s file')
      saves.push(join(folder, 'other'))
      expect((await failure(core, 'workspace:save', {})).message).toMatch(/^"other\.qxw\.json" already exists in /)
      expect(readFileSync(join(folder, 'other.qxw.json'), 'utf8')).toBe('someone else’s file')
      expect((await current(core)).workspace).toMatchObject({ dirty: true, saveTarget: 'choose', fileName: null })
    })

    it('restarts on the same file, with its path, unsaved edits and dirty flag', async () => {
      const { dialogs, opens } = scriptedDialogs()
      const dataDir = tempDir('data')
      const folder = tempDir('files')
      const path = join(folder, 'team.qxw.json')
      writeFileSync(path, textOf([{ name: 'Paris' }]))
      const core = await electronCore(dialogs, dataDir)
      opens.push(path)
      await call(core, 'workspace:open', {})
      await saveQuery(core, { name: 'Oslo' })
      const before = await current(core)
      await close(core)

      const again = await electronCore(scriptedDialogs().dialogs, dataDir)
      expect(await current(again)).toEqual(before)
      expect(before.workspace).toMatchObject({ fileName: 'team.qxw.json', folder, saveTarget: 'file', dirty: true })
      await call(again, 'workspace:save', {})
      expect(parseWorkspace(readFileSync(path, 'utf8'), 'x')).toMatchObject({ ok: true, workspace: { queries: [{ name: 'Paris' }, { name: 'Oslo' }] } })
    })
  })

  describe('browser host: the page picks files and takes downloads', () => {
    it('imports a file, binds the demo moved to this launch’s port, and offers the save as a download', async () => {
      const core = await browserCore()
      const example = readFileSync(join(__dirname, '../../examples/big-spanish-cities.qxw.json'), 'utf8')
      const view = await importText(core, 'big-spanish-cities.qxw.json', example)
      expect(view).toMatchObject({ name: 'big-spanish-cities', fileName: 'big-spanish-cities.qxw.json', folder: null, saveTarget: 'download', judges: [], dirty: false })
      expect(view.bindings).toEqual([{ fileConnectionId: 'demo', connection: OLD_DEMO, connectionId: 'demo', how: 'moved' }])

      await call(core, 'workspace:rename-query', { name: 'Big Spanish cities', newName: 'Grandes ciudades' })
      const saved = await call<SaveReply>(core, 'workspace:save', {})
      expect(saved.workspace).toMatchObject({ dirty: false, fileName: 'big-spanish-cities.qxw.json' })
      expect(saved.download?.fileName).toBe('big-spanish-cities.qxw.json')
      const read = parseWorkspace(saved.download!.text, 'x')
      expect(read.ok && read.workspace.queries[0]!.name).toBe('Grandes ciudades')
      // The file keeps the URLs it had: the binding is this app's business, not the file's.
      expect(read.ok && read.workspace.connections).toEqual([OLD_DEMO])
      expect(saved.download!.text.replace('Grandes ciudades', 'Big Spanish cities')).toBe(example)

      const refused = await failure(core, 'workspace:open', {})
      expect(refused).toMatchObject({ code: 'validation' })
      expect(refused.message).toMatch(/Open workspace…/)
    })

    it('saves a workspace never saved under the name the user gave, refusing one that would be a path; later saves keep it', async () => {
      const core = await browserCore()
      await saveQuery(core, { name: 'Paris' })
      for (const [name, rule] of [['team/queries', 'a name cannot hold / or \\'], ['  ', 'give the workspace a name'], ['..', 'a name needs more than dots'], ['a\u0007b', 'a name cannot hold control characters']]) {
        const refused = await failure(core, 'workspace:save', { name })
        expect(refused).toMatchObject({ code: 'validation', message: `Workspace name: ${rule}.` })
      }
      expect((await current(core)).workspace).toMatchObject({ name: 'Untitled workspace', fileName: null, dirty: true })

      const named = await call<SaveReply>(core, 'workspace:save', { name: ' Team queries ' })
      expect(named.download?.fileName).toBe('Team queries.qxw.json')
      expect(named.workspace).toMatchObject({ name: 'Team queries', fileName: 'Team queries.qxw.json', dirty: false })
      expect(parseWorkspace(named.download!.text, 'Team queries.qxw.json').ok).toBe(true)
      const again = await call<SaveReply>(core, 'workspace:save', {})
      expect(again.download?.fileName).toBe('Team queries.qxw.json')
      expect((await call<RecentWorkspace[]>(core, 'workspace:recent', {}))[0]).toMatchObject({ fileName: 'Team queries.qxw.json' })
    })

    it('prefers the demo when other connections also match with another port', async () => {
      const core = await browserCore()
      const copy = await call<ConnectionView>(core, 'connections:duplicate', { connectionId: 'demo' })
      const view = await importText(core, 'team.qxw.json', textOf([{ name: 'Paris' }]))
      expect(view.bindings[0]).toMatchObject({ connectionId: 'demo', how: 'moved' })
      // A file that names this launch's URLs exactly: the same, and still the demo first.
      const exact = { ...OLD_DEMO, authUrl: demo().authUrl, queryUrl: demo().queryUrl }
      const same = await importText(core, 'exact.qxw.json', textOf([{ name: 'Paris' }], [exact]))
      expect(same.bindings[0]).toMatchObject({ connectionId: 'demo', how: 'same' })
      expect(copy.id).not.toBe('demo')
    })

    it('refuses a bad import by its name and changes nothing', async () => {
      const dataDir = tempDir('data')
      const core = await browserCore(dataDir)
      await importText(core, 'good.qxw.json', textOf([{ name: 'Paris' }]))
      await saveQuery(core, { name: 'Unsaved' })
      const before = await current(core)
      const session = sessionBytes(dataDir)
      const recentBefore = await call<RecentWorkspace[]>(core, 'workspace:recent', {})
      for (const [name, text, message] of [
        ['a.qxw.json', 'not json', /^"a\.qxw\.json" is not valid JSON/],
        ['b.qxw.json', '{"format": "query-explorer-workspace", "version": 7}', /^"b\.qxw\.json" was written by a newer Query Explorer \(workspace format version 7\)/],
        ['c.qxw.json', JSON.stringify({ format: 'query-explorer-workspace', version: 1, apiKey: 'k' }), /^"c\.qxw\.json" holds a field that looks like a secret/],
        ['d.qxw.json', '{"format": "query-explorer-workspace", "version": 1, "queries": [{"name": "x"}]}', /^"d\.qxw\.json" is not a valid workspace: /],
      ] as const) {
        const refused = await failure(core, 'workspace:import', { upload: await uploadText(core, name, text) })
        expect(refused.code).toBe('validation')
        expect(refused.message).toMatch(message)
      }
      expect(await current(core)).toEqual(before)
      expect(sessionBytes(dataDir).equals(session)).toBe(true)
      expect(await call(core, 'workspace:recent', {})).toEqual(recentBefore)
    })

  })
})
